import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { makeUser, signIn } from '../helpers/mcp-oauth.js';
import { recordOutput } from '../helpers/output-log.js';
import { call, testSite, wp } from '../helpers/site.js';

// Sign in with WordPress, end to end: the MCP SDK's client with its OAuth provider, a scripted
// browser through wp-login.php and authorize-application.php, our server in between.
const site = testSite();
const stateDir = mkdtempSync(path.join(tmpdir(), 'cms-oauth-'));
let server: McpHttpServer;
const editor = { username: '', password: `Editor-${process.pid}-pass-${Date.now()}!`, id: 0 };

function serve(dir = stateDir, extra: { accessTtlMs?: number } = {}): Promise<McpHttpServer> {
  return serveMcpHttp(
    createContext(site),
    {},
    {},
    {
      port: 0,
      wordpress: {
        siteUrl: site.url,
        stateDir: dir,
        ...extra,
        contextFor: (login) => createContext({ url: site.url, ...login }),
      },
    },
  );
}

const appPasswords = (userId: number) =>
  wp().get<Array<{ name: string; uuid: string }>>(`/wp/v2/users/${userId}/application-passwords`);

beforeAll(async () => {
  Object.assign(editor, await makeUser('editor'));
  server = await serve();
});

afterAll(async () => {
  await server?.close();
});

describe('mcp --http: sign in with WordPress', () => {
  it('an editor signs in through authorize-application.php, acts as themselves, and revoking ends it in WordPress', async () => {
    const { client, oauth } = await signIn(server.url, editor, 'Editor laptop');
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.every((t) => t.outputSchema)).toBe(true);
    const tags = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
    expect(tags.isError).toBe(false);
    expect((tags.structuredContent as { total: number }).total).toBe(
      await wp().count('/wp/v2/tags', { hide_empty: false }),
    );
    const users = await client.callTool({ name: 'list-users', arguments: {} });
    expect(users.isError).toBe(true);
    recordOutput(JSON.stringify(users.content));
    expect(JSON.stringify(users.content)).toMatch(/rest_forbidden|not allowed|permission/i);
    // The editor's application passwords, as the site's administrator's list-app-passwords shows them.
    const listed = await call('list-app-passwords', { user_id: editor.id });
    expect(JSON.stringify(listed)).toContain('Editor laptop → 127.0.0.1:1 (cms-admin MCP)');
    const ours = (await appPasswords(editor.id)).filter((p) => p.name.startsWith('Editor laptop'));
    expect(ours).toHaveLength(1);
    expect(statSync(path.join(stateDir, 'oauth-store.json')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(stateDir, 'oauth-key')).mode & 0o777).toBe(0o600);

    expect(server.sessions()).toBe(1);
    const revoked = await fetch(new URL('/revoke', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: oauth.saved?.refresh_token as string,
        client_id: oauth.info?.client_id as string,
      }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await appPasswords(editor.id)).filter((p) => p.name.startsWith('Editor laptop'))).toEqual([]);
    const after = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${oauth.saved?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    // The grant's open session was closed with it.
    expect(server.sessions()).toBe(0);
    await client.close().catch(() => {});
  });
});
