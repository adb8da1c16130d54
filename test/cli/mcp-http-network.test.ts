import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { signIn } from '../helpers/mcp-oauth.js';
import { type TestNetwork, networkState, testNetwork } from '../helpers/network.js';
import { recordOutput } from '../helpers/output-log.js';

// `mcp --http` with sign-in through WordPress on a multisite network (issue #39): the server has
// no site context at start (CMS_URL only), so each signed-in session asks its site.
let net: TestNetwork;
let server: McpHttpServer;

beforeAll(async () => {
  net = await testNetwork();
  server = await serveMcpHttp(undefined, {}, {}, {
    port: 0,
    wordpress: {
      siteUrl: net.url,
      stateDir: mkdtempSync(path.join(tmpdir(), 'cms-oauth-net-')),
      contextFor: (login) => createContext({ url: net.url, ...login }),
    },
  });
}, 300_000);
afterAll(async () => server?.close());

describe('mcp --http sign-in on a multisite network', { timeout: 300_000 }, () => {
  it("the super admin's session lists the network tools and the network form of list-users, and a network write works", async () => {
    const { client } = await signIn(server.url, { username: net.username, password: net.adminPassword }, 'Network laptop', net.url);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const tool of ['add-user-to-site', 'remove-user-from-site', 'grant-super-admin', 'revoke-super-admin']) expect(names).toContain(tool);
    const listUsers = tools.find((t) => t.name === 'list-users');
    expect(Object.keys((listUsers?.inputSchema as { properties?: object } | undefined)?.properties ?? {})).toContain('network');

    const everyone = await client.callTool({ name: 'list-users', arguments: { network: true, search: 'carla' } });
    recordOutput(JSON.stringify(everyone.content));
    expect(everyone.isError).toBe(false);
    expect((everyone.structuredContent as { items: Array<{ sites: object }> }).items[0]?.sites).toEqual({ sports: 'author', news: 'editor' });

    const joined = await client.callTool({ name: 'add-user-to-site', arguments: { user_id: net.users.carla, site: 'arts', role: 'subscriber' } });
    recordOutput(JSON.stringify(joined.content));
    expect(joined.isError, JSON.stringify(joined.content)).toBe(false);
    expect((await networkState(net)).carla?.sites.arts).toEqual(['subscriber']);
    await client.close();
  });
});
