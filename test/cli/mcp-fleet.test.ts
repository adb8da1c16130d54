import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfiles } from '../../src/sites/store.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { LoopbackServer } from '../../src/evals/loopback.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { fleetOf } from '../../src/sites/fleet.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { recordOutput } from '../helpers/output-log.js';
import { unique } from '../helpers/site.js';

// The agent across sites through MCP (issue #38): `mcp --sites` serves every tool with `site`;
// a write on several sites is ONE elicitation listing each site's effect, read from that site.
// Three real sandboxes (one WordPress 6.1), a dead origin and one redirecting elsewhere.
let fleet: Fleet;
let redirecting: FaultProxy;
let trap: LoopbackServer;
const trapped: string[] = [];
let profiles: Array<{ name: string; url: string; username: string; appPassword: string; groups: string[] }>;

beforeAll(async () => {
  fleet = await startFleet();
  trap = await LoopbackServer.start((req, res) => {
    trapped.push(String(req.headers.authorization ?? ''));
    res.writeHead(404).end();
  });
  const one = fleet.sites[0]!;
  redirecting = await new FaultProxy(one.url).start();
  redirecting.quirk({ redirect: { status: 301, to: trap.origin } });
  profiles = [
    ...fleet.sites.map((s) => ({ name: s.name, url: s.url, username: s.username, appPassword: s.appPassword, groups: ['real'] })),
    { name: 'dead', url: 'http://127.0.0.1:9', username: 'admin', appPassword: 'wxyz wxyz wxyz wxyz wxyz wxyz', groups: [] },
    { name: 'redirecting', url: redirecting.url, username: one.username, appPassword: one.appPassword, groups: [] },
  ];
  writeProfiles({ version: 1, sites: profiles }, path.join(fleet.configHome, 'cms-admin', 'sites.json'));
}, 300_000);
afterAll(async () => {
  await redirecting?.stop();
  await trap?.stop();
  await fleet?.stop();
});

async function connect(answer: (request: ElicitRequest) => ElicitResult) {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(fleetOf(profiles, { context: { timeoutMs: 8000 } })).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked: ElicitRequest[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request);
    return answer(request);
  });
  await client.connect(clientSide);
  return { client, asked };
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  recordOutput(text);
  for (const p of profiles) expect(text).not.toContain(p.appPassword);
  return { isError: result.isError, body: JSON.parse(text) };
}

const categoriesNamed = async (site: string, name: string) =>
  (await fleet.client(site).get<Array<{ id: number; name: string }>>('/wp/v2/categories', { search: name, per_page: 100 })).filter(
    (c) => c.name === name,
  );
async function removeEverywhere(name: string) {
  for (const s of fleet.sites)
    for (const c of await categoriesNamed(s.name, name)) await fleet.client(s.name).delete(`/wp/v2/categories/${c.id}`, { force: true });
}

describe('mcp with several sites', { timeout: 300_000 }, () => {
  it('lists every tool with site and list-sites; accept on a group writes each site after one question listing each', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept', content: {} }));
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'list-sites')).toBeTruthy();
    const create = tools.find((t) => t.name === 'create-category')!;
    expect(create.inputSchema.required).toContain('site');
    const name = unique('Mcp Fleet');
    const { isError, body } = await callTool(client, 'create-category', { name, site: '@real' });
    expect(isError).toBe(false);
    expect(asked).toHaveLength(1);
    const message = asked[0]!.params.message;
    for (const site of ['one', 'two', 'three']) expect(message).toContain(`- ${site}: create the category "${name}"`);
    expect(body.sites.map((s: { site: string; ok: boolean }) => `${s.site}:${s.ok}`)).toEqual(['one:true', 'two:true', 'three:true']);
    for (const site of ['one', 'two', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(1);
    await removeEverywhere(name);
    await client.close();
  });

  it('decline: nothing is written on any site', async () => {
    const { client, asked } = await connect(() => ({ action: 'decline' }));
    const name = unique('Mcp Declined');
    const { isError, body } = await callTool(client, 'create-category', { name, site: 'one,two,three' });
    expect(isError).toBe(true);
    expect(body.error.code).toBe('rejected_by_user');
    expect(asked).toHaveLength(1);
    for (const site of ['one', 'two', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(0);
    await client.close();
  });

  it('one site is not asked about a call one site is never asked about; several always are', async () => {
    const { client, asked } = await connect(() => ({ action: 'decline' }));
    const name = unique('Mcp Single');
    const { isError } = await callTool(client, 'create-category', { name, site: 'two' });
    expect(isError).toBe(false);
    expect(asked).toEqual([]);
    expect(await categoriesNamed('two', name)).toHaveLength(1);
    expect(await categoriesNamed('one', name)).toHaveLength(0);
    await removeEverywhere(name);
    await client.close();
  });

  it('a site down and one redirecting elsewhere are their own errors by name; the others are written; no password leaves its origin', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept', content: {} }));
    const name = unique('Mcp Down');
    const { isError, body } = await callTool(client, 'create-category', { name, site: 'one,dead,redirecting,three' });
    expect(isError).toBe(false);
    expect(asked).toHaveLength(1);
    const by = Object.fromEntries(body.sites.map((s: { site: string }) => [s.site, s]));
    expect(by.one.ok).toBe(true);
    expect(by.three.ok).toBe(true);
    expect(by.dead.error.code).toBe('ECONNREFUSED');
    expect(by.redirecting.error.code).toMatch(/redirect/);
    expect(body.summary).toBe('2 ok, 2 failed');
    expect(trapped.filter(Boolean)).toEqual([]);
    for (const site of ['one', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(1);
    expect(await categoriesNamed('two', name)).toHaveLength(0);
    await removeEverywhere(name);
    await client.close();
  });

  it('cms-admin mcp --sites @real --yes: list-sites names the group, a write runs on each (approved by --yes)', async () => {
    const env = fleet.env({ PATH: process.env.PATH ?? '', XDG_STATE_HOME: process.env.XDG_STATE_HOME ?? '' });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...cliArgs(), 'mcp', '--sites', '@real', '--yes'],
        cwd: REPO_ROOT,
        env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>,
      }),
    );
    const listed = await callTool(client, 'list-sites', {});
    expect(listed.body.items.map((s: { name: string }) => s.name)).toEqual(['one', 'two', 'three']);
    const name = unique('Mcp Stdio');
    const { body } = await callTool(client, 'create-category', { name, site: 'all' });
    expect(body.summary).toBe('3 ok');
    for (const site of ['one', 'two', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(1);
    await removeEverywhere(name);
    await client.close();
  });
});
