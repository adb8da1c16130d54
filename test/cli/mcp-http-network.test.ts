import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { signIn } from '../helpers/mcp-oauth.js';
import { type TestNetwork, networkState, testNetwork } from '../helpers/network.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';

// `mcp --http` with sign-in through WordPress on a multisite network (issue #39): the server has
// no site context at start (CMS_URL only), so each signed-in session asks its site.
let net: TestNetwork;
let server: McpHttpServer;
/** The same sign-in for the Sports site, where dave is an administrator and not a super admin. */
let sportsServer: McpHttpServer;

const NETWORK_ONLY = ['add-user-to-site', 'remove-user-from-site', 'grant-super-admin', 'revoke-super-admin'];
const paramsOf = (tools: Array<{ name: string; inputSchema: unknown }>, name: string) =>
  Object.keys((tools.find((t) => t.name === name)?.inputSchema as { properties?: object } | undefined)?.properties ?? {});

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
  const sports = net.sites.sports as string;
  sportsServer = await serveMcpHttp(undefined, {}, {}, {
    port: 0,
    wordpress: {
      siteUrl: sports,
      stateDir: mkdtempSync(path.join(tmpdir(), 'cms-oauth-net-')),
      contextFor: (login) => createContext({ url: sports, ...login }),
    },
  });
}, 300_000);
afterAll(async () => Promise.all([server?.close(), sportsServer?.close()]));

describe('mcp --http sign-in on a multisite network', { timeout: 300_000 }, () => {
  it("the super admin's session lists the network tools and the network form of list-users, and a network write works", async () => {
    const { client } = await signIn(server.url, { username: net.username, password: net.adminPassword }, 'Network laptop', net.url);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const tool of NETWORK_ONLY) expect(names).toContain(tool);
    expect(paramsOf(tools, 'list-users')).toContain('network');

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

  it('a site administrator of the network (not a super admin) gets the single-site list, over HTTP sign-in and over stdio', async () => {
    // dave administers Sports only; WordPress lets him use none of the network routes.
    const admin = net.context('sports').client;
    const password = `dave-${process.pid}-pass-${Date.now()}!`;
    recordSecret(password);
    await admin.post(`/wp/v2/users/${net.users.dave}`, { password });
    const created = await admin.post<{ password: string }>(`/wp/v2/users/${net.users.dave}/application-passwords`, { name: 'network tools list' });
    recordSecret(created.password);

    const { client } = await signIn(sportsServer.url, { username: 'dave', password }, 'Sports laptop', net.sites.sports);
    const signedIn = (await client.listTools()).tools;
    await client.close();

    const stdio = new Client({ name: 'test', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...cliArgs(), 'mcp'],
        env: { PATH: process.env.PATH ?? '', CMS_URL: net.sites.sports as string, CMS_USERNAME: 'dave', CMS_APP_PASSWORD: created.password },
      }),
    );
    const token = (await stdio.listTools()).tools;
    const listed = await stdio.callTool({ name: 'list-users', arguments: { search: 'carla' } });
    await stdio.close();
    recordOutput(JSON.stringify(listed.content));

    for (const tools of [signedIn, token]) {
      const names = tools.map((t) => t.name);
      for (const tool of NETWORK_ONLY) expect(names).not.toContain(tool);
      expect(names).toContain('list-users');
      expect(paramsOf(tools, 'list-users')).not.toContain('network');
    }
    // The single-site list-users finds carla, a member of Sports, and says he may not edit her.
    expect(listed.isError, JSON.stringify(listed.content)).toBe(false);
    expect((listed.structuredContent as { items: unknown[] }).items).toEqual([{ id: net.users.carla, name: 'Carla', may_edit: false }]);
  });
});
