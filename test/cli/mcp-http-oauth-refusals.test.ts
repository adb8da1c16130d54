import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { authorize, makeUser, rawPost, signIn } from '../helpers/mcp-oauth.js';
import { recordSecret } from '../helpers/output-log.js';
import { fixedPorts } from '../helpers/ports.js';
import { testSite, wp } from '../helpers/site.js';
import { MemoryOAuthClient, WpBrowser } from '../helpers/wp-browser.js';

// What sign-in mode refuses: each case against a real server and, where a grant is needed, a
// real sign-in through WordPress.
const site = testSite();
const servers: McpHttpServer[] = [];
let server: McpHttpServer;
let author: { username: string; password: string; id: number };

function serve(
  stateDir: string,
  accessTtlMs?: number,
  refreshTtlMs?: number,
  port = 0,
  idleMs?: number,
): Promise<McpHttpServer> {
  return serveMcpHttp(
    createContext(site),
    {},
    {},
    {
      port,
      idleMs,
      wordpress: {
        siteUrl: site.url,
        stateDir,
        accessTtlMs,
        refreshTtlMs,
        contextFor: (login) => createContext({ url: site.url, ...login }),
      },
    },
  ).then((s) => {
    servers.push(s);
    return s;
  });
}
const newDir = () => mkdtempSync(path.join(tmpdir(), 'cms-oauth-'));
const base = () => new URL('/', server.url);

async function register(redirect = 'http://127.0.0.1:1/cb'): Promise<string> {
  const res = await fetch(new URL('/register', base()), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'refusals', redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(clientId: string, extra: Record<string, string>): URL {
  const url = new URL('/authorize', base());
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:1/cb',
    code_challenge: 'x'.repeat(43),
    code_challenge_method: 'S256',
    state: 's1',
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

beforeAll(async () => {
  author = await makeUser('author');
  server = await serve(newDir());
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('mcp --http sign-in refuses', () => {
  it('no token: 401 pointing at the protected-resource metadata, which names this server and its authorization server', async () => {
    const { status, challenge } = await rawPost(server.url, {});
    expect(status).toBe(401);
    // RFC 6750 §3.1: no credentials, no error code (issue #37 finding 3).
    expect(challenge).not.toContain('error=');
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(new URL('/.well-known/oauth-protected-resource/mcp', base()).href);
    const prm = (await (await fetch(metadataUrl as string)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(prm.resource).toBe(server.url);
    const as = (await (await fetch(new URL('/.well-known/oauth-authorization-server', base()))).json()) as Record<
      string,
      unknown
    >;
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.registration_endpoint).toBeTruthy();
    // /revoke takes a public client's client_id alone, as /token does.
    expect(as.revocation_endpoint_auth_methods_supported).toEqual(['client_secret_post', 'none']);
  });

  it('a forged token: 401 invalid_token', async () => {
    const { status, challenge } = await rawPost(server.url, { authorization: `Bearer forged-${'x'.repeat(40)}` });
    expect(status).toBe(401);
    expect(challenge).toContain('invalid_token');
  });

  it('PKCE plain: invalid_request on our page (no one consented to the client: never redirected, #48), never to WordPress', async () => {
    const res = await fetch(authorizeUrl(await register(), { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([400, null]);
    // A sentence, not zod's JSON dump of issues.
    expect(await res.text()).toContain('cannot go on: code_challenge_method must be &quot;S256&quot; (<code>invalid_request</code>)');
    const missing = await fetch(new URL('/authorize', base()), { redirect: 'manual' });
    expect(await missing.json()).toEqual({ error: 'invalid_request', error_description: 'client_id is missing' });
  });

  it('a redirect URI not registered: 400, no redirect at all', async () => {
    const res = await fetch(authorizeUrl(await register(), { redirect_uri: 'http://evil.example/cb' }), {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('authorizing for another resource: invalid_target (on our page: no one consented to the client)', async () => {
    const res = await fetch(authorizeUrl(await register(), { resource: 'http://127.0.0.1:1/mcp' }), {
      redirect: 'manual',
    });
    expect([res.status, res.headers.get('location')]).toEqual([400, null]);
    const page = await res.text();
    expect(page).toContain(`the resource http://127.0.0.1:1/mcp is not served here; this server is ${server.url}`);
    expect(page).toContain('<code>invalid_target</code>');
  });

  it('a wrong Origin: 403 even with a good token; an expired token: 401; a grant of another server: refused there', async () => {
    const dir = newDir();
    const shortLived = await serve(dir, 0);
    const oauth = await authorize(shortLived.url, author, 'Short-lived');
    const access = oauth.saved?.access_token as string;
    expect(
      (await rawPost(shortLived.url, { authorization: `Bearer ${access}`, origin: 'http://evil.example' })).status,
    ).toBe(403);
    const expired = await rawPost(shortLived.url, { authorization: `Bearer ${access}` });
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('invalid_token');

    // Another server (another resource URL) reading the same store: the grant's tokens are not its own.
    const other = await serve(dir);
    expect((await rawPost(other.url, { authorization: `Bearer ${access}` })).status).toBe(401);
    const refresh = await fetch(new URL('/token', other.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: oauth.saved?.refresh_token as string,
        client_id: oauth.info?.client_id as string,
      }).toString(),
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_target');
  });

  it('a grant past its refresh lifetime: refresh refused and its application password deleted in WordPress', async () => {
    const expiring = await serve(newDir(), undefined, 0);
    const oauth = await authorize(expiring.url, author, 'Expiring grant');
    const named = async () =>
      (await wp().get<Array<{ name: string }>>(`/wp/v2/users/${author.id}/application-passwords`)).filter((p) =>
        p.name.startsWith('Expiring grant'),
      );
    expect(await named()).toHaveLength(1);
    const refresh = await fetch(new URL('/token', expiring.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: oauth.saved?.refresh_token as string,
        client_id: oauth.info?.client_id as string,
      }).toString(),
    });
    const answer = (await refresh.json()) as { error: string };
    expect(answer.error).toBe('invalid_grant');
    expect(await named()).toEqual([]);
  });

  it("one person's token cannot use another person's session", async () => {
    const editor = await makeUser('editor');
    const a = await signIn(server.url, author, 'Person A');
    const b = await authorize(server.url, editor, 'Person B');
    const sessionId = (a.client.transport as { sessionId?: string }).sessionId as string;
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${b.saved?.access_token}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'get-cms-tags', arguments: { limit: 1 } },
      }),
    });
    expect(res.status).toBe(404);
    await res.body?.cancel();
    expect((await a.client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } })).isError).toBe(false);
    await a.client.close();
  });

  it('after a restart on the same address and store, the refresh token still works and calls run as the person', async () => {
    const dir = newDir();
    const first = await serve(dir, undefined, undefined, fixedPorts().oauthRestart);
    const oauth = await authorize(first.url, author, 'Restart');
    await first.close();
    const again = await serve(dir, undefined, undefined, fixedPorts().oauthRestart);
    // This process's pooled keep-alive connection went with the old server: the first request
    // over it fails at the socket, as a real client's would once; later ones open a new one.
    await fetch(new URL('/.well-known/oauth-protected-resource/mcp', again.url)).catch(() => undefined);
    const { client } = await (async () => {
      const c = new Client({ name: 'restart', version: '1.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(again.url), { authProvider: oauth }));
      return { client: c };
    })();
    // The access token died with the first process (kept in memory only): the client refreshed.
    const users = await client.callTool({ name: 'list-users', arguments: {} });
    expect(users.isError).toBe(true);
    expect((await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } })).isError).toBe(false);
    await client.close();
  });

  it('an expired grant nobody refreshes is revoked in WordPress by the server on its own', async () => {
    const swept = await serve(newDir(), undefined, 0, 0, 50);
    await authorize(swept.url, author, 'Swept grant');
    const named = async () =>
      (await wp().get<Array<{ name: string }>>(`/wp/v2/users/${author.id}/application-passwords`)).filter((p) =>
        p.name.startsWith('Swept grant'),
      );
    let left = await named();
    for (let i = 0; i < 100 && left.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await named();
    }
    expect(left).toEqual([]);
  });

  it('a code with the wrong PKCE verifier gets no tokens', async () => {
    const oauth = new MemoryOAuthClient('Wrong verifier');
    const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: oauth });
    await new Client({ name: 'v', version: '1.0.0' }).connect(first).catch(() => undefined);
    const browser = new WpBrowser(testSite().url);
    await browser.logIn(author.username, author.password);
    const code = (await browser.approve((oauth.authorizeUrl as URL).href)).searchParams.get('code') as string;
    recordSecret(code);
    const res = await fetch(new URL('/token', base()), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: `wrong-${'v'.repeat(50)}`,
        redirect_uri: oauth.redirectUrl,
        client_id: oauth.info?.client_id as string,
      }).toString(),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('a callback that no authorize step started (or a repeated one) is refused: 400, no code', async () => {
    for (const query of ['pending=unknown', 'pending=a&pending=b', '']) {
      const res = await fetch(
        new URL(`/oauth/wordpress/callback?${query}&user_login=x&password=not-a-real-one`, base()),
        {
          redirect: 'manual',
        },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });
});
