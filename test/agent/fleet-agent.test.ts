import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Command, MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, HumanMessage } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/call/index.js';
import { allLangChainTools, type NamedSite, TaxonomyToolkit } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { recordOutput } from '../helpers/output-log.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { unique } from '../helpers/site.js';

// The agent across sites (issue #38): the toolkits' `sites` option in an app's own LangGraph
// agent (the real ChatOpenAI against a scripted server) on three real sandboxes (one WordPress
// 6.1) and a dead origin. Every effect is read back from each site.
let fleet: Fleet;
let server: ScriptedOpenAI;
let sites: NamedSite[];
const WRONG = 'wxyz wxyz wxyz wxyz wxyz wxyz';

beforeAll(async () => {
  fleet = await startFleet();
  server = await new ScriptedOpenAI().start();
  sites = [
    ...fleet.sites.map((s) => ({ name: s.name, url: s.url, username: s.username, appPassword: s.appPassword, groups: ['real'] })),
    { name: 'dead', url: 'http://127.0.0.1:9', username: 'admin', appPassword: WRONG },
  ];
  const { writeProfiles } = await import('../../src/sites/store.js');
  writeProfiles({ version: 1, sites: sites.map((s) => ({ ...s, groups: [...(s.groups ?? [])] })) }, path.join(fleet.configHome, 'cms-admin', 'sites.json'));
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await fleet?.stop();
});
beforeEach(() => server.clear());

const model = () => new ChatOpenAI({ model: 'scripted', apiKey: 'x', configuration: { baseURL: server.url }, maxRetries: 0 });
const agent = (checkpointer = new MemorySaver()) =>
  createAgent({ model: model(), tools: allLangChainTools({ sites, approvals: 'interrupt' }), checkpointer });
const categoriesNamed = async (site: string, name: string) =>
  (await fleet.client(site).get<Array<{ name: string }>>('/wp/v2/categories', { search: name, per_page: 100 })).filter((c) => c.name === name);
const lastToolResult = (request: { messages: Array<{ role: string; content?: unknown }> }) => {
  const text = String(request.messages.filter((m) => m.role === 'tool').at(-1)?.content);
  recordOutput(text);
  return JSON.parse(text);
};
type Interrupted = { __interrupt__?: Array<{ id: string; value: ApprovalRequest & { type: string } }> };
const noSecretIn = (text: string) => {
  for (const s of sites) expect(text).not.toContain(s.appPassword);
};

describe('the toolkits with several sites', { timeout: 300_000 }, () => {
  it('every tool takes site; list-sites names each site without a secret; one site is the single-site shape', async () => {
    const tools = allLangChainTools({ sites, approvals: 'interrupt' });
    const create = tools.find((t) => t.name === 'create-category')!;
    expect(Object.keys((create.schema as { properties: object }).properties)).toContain('site');
    const listSites = tools.find((t) => t.name === 'list-sites')!;
    const answer = JSON.parse(await listSites.invoke({ check: true }));
    noSecretIn(JSON.stringify(answer));
    expect(answer.items.map((s: { name: string }) => s.name)).toEqual(['one', 'two', 'three', 'dead']);
    expect(answer.items[0]).toMatchObject({ url: sites[0]!.url, groups: ['real'], reachable: true });
    expect(answer.items[3]).toMatchObject({ reachable: false });
    expect(answer.items[3].error).toMatch(/ECONNREFUSED/);
    // One site: the single-site tools exactly (no site param, no list-sites).
    const single = new TaxonomyToolkit({ sites: [sites[0]!] }).getTools();
    expect(single.map((t) => t.name)).not.toContain('list-sites');
    const one = single.find((t) => t.name === 'create-category')!;
    expect(Object.keys((one.schema as { properties: object }).properties)).not.toContain('site');
  });

  it('a write on three sites stops with ONE interrupt listing each site; approve writes each, journalled per site; undo --run takes it back per site', async () => {
    const name = unique('Fleet Agent');
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: randomUUID() } };
    server.script({ toolCalls: [{ name: 'create-category', args: { name, site: '@real' } }] });
    const first = (await agent(checkpointer).invoke({ messages: [new HumanMessage('Add it everywhere.')] }, config)) as Interrupted;
    const [pending, ...more] = first.__interrupt__ ?? [];
    expect(more).toEqual([]);
    expect(pending?.value.tool).toBe('create-category');
    expect(pending?.value.sites?.map((s) => s.site)).toEqual(['one', 'two', 'three']);
    for (const s of pending!.value.sites!) expect(s.summary).toContain(`create the category "${name}"`);
    for (const site of ['one', 'two', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(0);

    let result: any;
    server.script((request) => {
      result = lastToolResult(request);
      return { content: 'Done.' };
    });
    await agent(checkpointer).invoke(new Command({ resume: { type: 'approve' } }), config);
    expect(result.sites.map((s: { site: string; ok: boolean }) => [s.site, s.ok])).toEqual([
      ['one', true],
      ['two', true],
      ['three', true],
    ]);
    expect(result.run).toMatch(/^r/);
    for (const site of ['one', 'two', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(1);

    // Each site's change is on that site's own journal: undo --run finds it on each.
    const env = fleet.env({ CMS_TIMEOUT_MS: '8000' });
    const undo = await runCli(['undo', '--run', result.run, '--yes', '--sites', '@real'], { env });
    expect(undo.code, undo.stderr + undo.stdout).toBe(0);
    for (const site of ['one', 'two', 'three']) {
      expect(undo.stdout).toMatch(new RegExp(`^${site}: undo (\\S+): deleted category \\d+ '[^']+' \\(it was created by change \\1\\)`, 'm'));
      expect(await categoriesNamed(site, name)).toHaveLength(0);
    }
  });

  it('rejecting the one question writes nothing on any site', async () => {
    const name = unique('Fleet Rejected');
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: randomUUID() } };
    server.script({ toolCalls: [{ name: 'create-category', args: { name, site: 'all' } }] });
    const first = (await agent(checkpointer).invoke({ messages: [new HumanMessage('Add it.')] }, config)) as Interrupted;
    expect(first.__interrupt__).toHaveLength(1);
    expect(first.__interrupt__![0]!.value.summary).toMatch(/^on 4 sites:/);
    let result: any;
    server.script((request) => {
      result = lastToolResult(request);
      return { content: 'OK.' };
    });
    await agent(checkpointer).invoke(new Command({ resume: { type: 'reject', message: 'Not today.' } }), config);
    expect(result.error.code).toBe('rejected_by_user');
    expect(result.error.message).toMatch(/Not today\..*Nothing was changed on any site/);
    for (const site of ['one', 'two', 'three']) expect(await categoriesNamed(site, name)).toHaveLength(0);
  });

  it('one site down: its error by name, the others answer; a read asks nothing', async () => {
    server.script({ toolCalls: [{ name: 'list-users', args: { role: 'administrator', site: 'all' } }] });
    let result: any;
    server.script((request) => {
      result = lastToolResult(request);
      return { content: 'Listed.' };
    });
    const out = (await agent().invoke({ messages: [new HumanMessage('Who is administrator where?')] }, { configurable: { thread_id: randomUUID() } })) as Interrupted;
    expect(out.__interrupt__ ?? []).toEqual([]);
    const by = Object.fromEntries(result.sites.map((s: { site: string }) => [s.site, s]));
    for (const site of ['one', 'two', 'three']) {
      expect(by[site].ok, JSON.stringify(by[site])).toBe(true);
      expect(by[site].result.items.map((u: { username: string }) => u.username)).toContain(fleet.sites[0]!.username);
    }
    expect(by.dead).toMatchObject({ ok: false, error: { code: 'ECONNREFUSED' } });
    expect(result.summary).toBe('3 ok, 1 failed');
    noSecretIn(JSON.stringify(result));
  });

  it('an unknown site is invalid_params naming the sites; nothing runs', async () => {
    const tools = allLangChainTools({ sites, approvals: 'interrupt' });
    const answer = JSON.parse(await tools.find((t) => t.name === 'create-tag')!.invoke({ name: unique('X'), site: 'shop' }));
    expect(answer.error.code).toBe('invalid_params');
    expect(answer.error.hint).toMatch(/one, two, three, dead, @real, all/);
  });
});
