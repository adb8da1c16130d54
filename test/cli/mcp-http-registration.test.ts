import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import type { ClientLimits } from '../../src/mcp/http/clients.js';
import { makeUser } from '../helpers/mcp-oauth.js';
import { recordSecret } from '../helpers/output-log.js';
import { testSite } from '../helpers/site.js';
import { WpBrowser } from '../helpers/wp-browser.js';

// Issue #33 findings 4 and 8: what unauthenticated registration may leave behind, and that a
// client is only ever told to use a token-endpoint method /token takes.
const site = testSite();
const servers: McpHttpServer[] = [];

async function serve(dir: string, clients?: ClientLimits): Promise<McpHttpServer> {
  const server = await serveMcpHttp(
    createContext(site),
    {},
    {},
    {
      port: 0,
      wordpress: {
        siteUrl: site.url,
        stateDir: dir,
        clients,
        contextFor: (login) => createContext({ url: site.url, ...login }),
      },
    },
  );
  servers.push(server);
  return server;
}

async function register(server: McpHttpServer, metadata: Record<string, unknown>) {
  const res = await fetch(new URL('/register', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'r', redirect_uris: ['http://127.0.0.1:1/cb'], ...metadata }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> & { client_id: string; error?: string } };
}

/** GET /authorize for `clientId`: 200 (our consent page) while the client is known, 400 invalid_client once it is gone. */
async function authorizeStatus(server: McpHttpServer, clientId: string, challenge = 'c'.repeat(43)) {
  const url = new URL('/authorize', server.url);
  const params = {
    response_type: 'code',
    client_id: clientId,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  await res.body?.cancel();
  return res.status;
}

let dir: string;
let server: McpHttpServer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cms-register-'));
  server = await serve(dir);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('mcp --http: client registration', () => {
  it('refuses more than 10 redirect URIs, a URI over 2,000 characters, a name over 200', async () => {
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `http://127.0.0.1:1/cb${i}`);
    expect((await register(server, { redirect_uris: uris(10) })).status).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ redirect_uris: uris(11) }, 'invalid_client_metadata'],
      [{ redirect_uris: [`http://127.0.0.1:1/${'a'.repeat(2000)}`] }, 'invalid_client_metadata'],
      [{ client_name: 'n'.repeat(201) }, 'invalid_client_metadata'],
    ];
    for (const [metadata, error] of cases) {
      const { status, body } = await register(server, metadata);
      expect([status, body.error]).toEqual([400, error]);
    }
  });

  it('a flood of 3,000 registrations: at most 1,000 unused clients kept (oldest gone first), the file bounded, grants untouched', async () => {
    const floodDir = mkdtempSync(path.join(tmpdir(), 'cms-flood-'));
    const flooded = await serve(floodDir);
    const file = path.join(floodDir, 'oauth-clients.jsonl');
    // Appended to, not rewritten: registrations keep the same file (inode) while no compaction is due.
    const first = await register(flooded, { client_name: 'first' });
    const inode = statSync(file).ino;
    for (let i = 0; i < 20; i++) await register(flooded, {});
    expect(statSync(file).ino).toBe(inode);

    const ids: string[] = [first.body.client_id];
    const name = 'x'.repeat(200);
    const redirect = `http://127.0.0.1:1/${'p'.repeat(600)}`;
    let sent = 0;
    for (let batch = 0; batch < 60; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => register(flooded, { client_name: name, redirect_uris: [redirect] })),
      );
      for (const { status, body } of answers) {
        expect(status).toBe(201);
        ids.push(body.client_id);
      }
      sent += 50 * (name.length + redirect.length);
    }
    // The 1,000 newest answer; everything older is gone.
    expect(await authorizeStatus(flooded, ids[ids.length - 1] as string)).toBe(200);
    expect(await authorizeStatus(flooded, ids[ids.length - 1000] as string)).toBe(200);
    expect(await authorizeStatus(flooded, ids[ids.length - 1001] as string)).toBe(400);
    expect(await authorizeStatus(flooded, first.body.client_id)).toBe(400);
    // What stays on disk is about the 1,000 kept, not the 3,000 sent.
    const size = statSync(file).size;
    const perClient = name.length + redirect.length + 300;
    expect(size).toBeLessThan(2 * 1000 * perClient + 256 * 1024);
    expect(size).toBeLessThan(sent);
    expect(existsSync(path.join(floodDir, 'oauth-store.json'))).toBe(false);
    // After a restart the same 1,000 are known.
    const again = await serve(floodDir);
    expect(await authorizeStatus(again, ids[ids.length - 1000] as string)).toBe(200);
    expect(await authorizeStatus(again, ids[ids.length - 1001] as string)).toBe(400);
  }, 120_000);

  it('a client never used for a sign-in expires', async () => {
    const expiring = await serve(mkdtempSync(path.join(tmpdir(), 'cms-expire-')), { unusedTtlMs: 0 });
    const { body } = await register(expiring, {});
    expect(await authorizeStatus(expiring, body.client_id)).toBe(400);
  });

  it('client_secret_basic is refused; the metadata lists exactly what /token takes', async () => {
    const basic = await register(server, { token_endpoint_auth_method: 'client_secret_basic' });
    expect([basic.status, basic.body.error]).toEqual([400, 'invalid_client_metadata']);
    expect(basic.body.error_description).toContain('client_secret_post');
    const metadata = (await (await fetch(new URL('/.well-known/oauth-authorization-server', server.url))).json()) as {
      token_endpoint_auth_methods_supported: string[];
    };
    expect([...metadata.token_endpoint_auth_methods_supported].sort()).toEqual(['client_secret_post', 'none']);
  });

  it('a confidential client (method omitted, so told client_secret_post) gets tokens at /token with its secret', async () => {
    const { status, body } = await register(server, { client_name: 'Confidential' });
    expect(status).toBe(201);
    expect(body.token_endpoint_auth_method).toBe('client_secret_post');
    expect(body.client_secret).toBeTruthy();
    recordSecret(body.client_secret);
    const author = await makeUser('author');
    const verifier = randomBytes(32).toString('base64url');
    recordSecret(verifier);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = new URL('/authorize', server.url);
    const params = {
      response_type: 'code',
      client_id: body.client_id,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const browser = new WpBrowser(site.url);
    await browser.logIn(author.username, author.password);
    const code = (await browser.approve(url.href)).searchParams.get('code') as string;
    recordSecret(code);
    const token = (secret?: string) =>
      fetch(new URL('/token', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          client_id: body.client_id as string,
          ...(secret ? { client_secret: secret } : {}),
        }).toString(),
      });
    const without = await token();
    expect([without.status, ((await without.json()) as { error: string }).error]).toEqual([400, 'invalid_client']);
    const res = await token(body.client_secret);
    const tokens = (await res.json()) as { access_token?: string; refresh_token?: string };
    recordSecret(tokens.access_token);
    recordSecret(tokens.refresh_token);
    expect(res.status).toBe(200);
    expect(tokens.access_token).toBeTruthy();
  });
});
