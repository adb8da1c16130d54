import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allLangChainTools, ChangesToolkit } from '../../src/toolkits.js';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { type Fleet, fleetTools, invoke, runOnFleet, tools } from '../../src/call/index.js';
import { lastToolResult, scriptedSession, unansweredToolCalls } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testContext, testSite, unique, wp } from '../helpers/site.js';
import { makeUser } from '../wordpress/users/helpers.js';

/**
 * #52.1 for the model and every surface: a login or an email where a user id goes, a slug where a
 * term id goes — in a chat's tool calls (LangChain, as ChatOpenAI sends them, strict too), over
 * MCP, on each site of several, and `invoke --sites` by profile names. Each write is read back.
 */
const rolesOf = async (id: number) => (await wp().get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles;
const descriptionOf = async (route: string, id: number) => (await wp().get<{ description: string }>(`${route}/${id}`)).description;

let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
beforeEach(() => server.clear());

describe('the model gives names where ids go', () => {
  it('a chat’s tool calls with a login and a slug write the right user and category; the schema sent says string', async () => {
    const user = await makeUser();
    const cat = await wp().post<{ id: number; slug: string }>('/wp/v2/categories', { name: unique('Model slug') });
    const { session } = scriptedSession(server);
    const results: unknown[] = [];
    server.script(
      { toolCalls: [{ name: 'set-user-role', args: { id: user.username, role: 'editor' } }] },
      (request) => {
        results.push(lastToolResult(request));
        return { toolCalls: [{ name: 'update-category', args: { id: cat.slug, description: 'Set by slug' } }] };
      },
      (request) => {
        results.push(lastToolResult(request));
        return { content: 'Done.' };
      },
    );
    const turn = await session.turn('Make them an editor and describe the category.');
    expect(turn.stopped).toBeUndefined();
    expect(unansweredToolCalls(server.requests.at(-1)!)).toEqual([]);
    expect(results.map((r) => (r as { error?: unknown }).error)).toEqual([undefined, undefined]);
    expect(await rolesOf(user.id)).toEqual(['editor']);
    expect(await descriptionOf('/wp/v2/categories', cat.id)).toBe('Set by slug');
    // What the provider was sent: the id params take a string (a login, a slug, or an id written out).
    const sent = server.requests[0]!.tools!.map((t) => t.function as { name: string; parameters: { properties: Record<string, { type: unknown }> } });
    expect(sent.find((f) => f.name === 'set-user-role')!.parameters.properties.id!.type).toBe('string');
    expect(sent.find((f) => f.name === 'update-category')!.parameters.properties.id!.type).toBe('string');
  });

  it('an unknown login answers name_not_found listing close accounts, an id as a number still works; nothing else is written', async () => {
    const user = await makeUser({ prefix: 'namesake' });
    const [setRole] = allLangChainTools({ context: testContext(), approvals: 'none' }).filter((t) => t.name === 'set-user-role');
    const missing = JSON.parse(String(await setRole!.invoke({ id: `${user.username}x`, role: 'editor' })));
    expect(missing.error.code).toBe('name_not_found');
    expect(missing.error.message).toContain(user.username);
    expect(await rolesOf(user.id)).toEqual(['subscriber']);
    const byId = JSON.parse(String(await setRole!.invoke({ id: user.id, role: 'author' })));
    expect(byId.error).toBeUndefined();
    expect(await rolesOf(user.id)).toEqual(['author']);
  });

  it('strict tools (OpenAI strict: every param, null = not given) take an email and a tag slug', async () => {
    const user = await makeUser();
    const tag = await wp().post<{ id: number; slug: string }>('/wp/v2/tags', { name: unique('Strict slug') });
    const strict = allLangChainTools({ context: testContext(), approvals: 'none', strict: true });
    const call = async (name: string, args: Record<string, unknown>) =>
      JSON.parse(String(await strict.find((t) => t.name === name)!.invoke({ type: 'tool_call', id: `c-${name}`, name, args }).then((m) => (m as { content: unknown }).content)));
    expect((await call('set-user-role', { id: user.email, role: 'author', add_roles: null, remove_roles: null, dry_run: null })).error).toBeUndefined();
    expect(await rolesOf(user.id)).toEqual(['author']);
    const updated = await call('update-tag', { id: tag.slug, name: null, slug: null, description: 'Strict by slug', meta: null, dry_run: null });
    expect(updated.error).toBeUndefined();
    expect(await descriptionOf('/wp/v2/tags', tag.id)).toBe('Strict by slug');
  });
});

describe('MCP tools/call takes names', () => {
  it('a login and a slug in tools/call arguments; tools/list says string or integer (#60.8)', async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(testContext()).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const listed = (await client.listTools()).tools;
      expect((listed.find((t) => t.name === 'log-out-user')!.inputSchema.properties as Record<string, { type: unknown }>).user_id!.type).toEqual(['string', 'integer']);
      const user = await makeUser();
      const role = await client.callTool({ name: 'set-user-role', arguments: { id: user.username, role: 'contributor' } });
      expect(role.isError, JSON.stringify(role.content)).toBe(false);
      expect(await rolesOf(user.id)).toEqual(['contributor']);
      const tag = await wp().post<{ id: number; slug: string }>('/wp/v2/tags', { name: unique('Mcp slug') });
      const updated = await client.callTool({ name: 'update-tag', arguments: { id: tag.slug, description: 'Over MCP' } });
      expect(updated.isError, JSON.stringify(updated.content)).toBe(false);
      expect(await descriptionOf('/wp/v2/tags', tag.id)).toBe('Over MCP');
      const unknown = await client.callTool({ name: 'update-tag', arguments: { id: `${tag.slug}-nope`, description: 'No' } });
      expect(unknown.isError).toBe(true);
      expect(JSON.parse((unknown.content as Array<{ text: string }>)[0]!.text).error.code).toBe('name_not_found');
    } finally {
      await client.close();
    }
  });
});

describe('several sites', () => {
  const fleet = (): Fleet => {
    const { url, username } = testSite();
    const site = (name: string) => ({ name, url, username, groups: [], context: testContext() });
    return { sites: [site('alpha'), site('beta')] };
  };
  const fleetTool = (name: string) => fleetTools(tools).find((t) => t.name === name)!;

  it('a fleet call with a login is looked up on each site; an unknown site name lists the names', async () => {
    const user = await makeUser();
    const out = await runOnFleet(fleetTool('set-user-role'), fleet(), { id: user.username, role: 'editor', site: 'alpha' }, async () => ({ approved: true }));
    expect(out.ok && (out.result as { sites: Array<{ ok: boolean }> }).sites.map((s) => s.ok)).toEqual([true]);
    expect(await rolesOf(user.id)).toEqual(['editor']);
    const nowhere = await runOnFleet(fleetTool('set-user-role'), fleet(), { id: user.username, role: 'author', site: 'gamma' }, async () => ({ approved: true }));
    expect(nowhere.ok ? '' : `${nowhere.error.message} ${nowhere.error.hint}`).toMatch(/No site or group "gamma".*alpha, beta/);
    expect(await rolesOf(user.id)).toEqual(['editor']);
  });

  it('invoke --sites by profile names takes a login; an unknown profile name is exit 2 naming the known ones', async () => {
    const site = testSite();
    const configHome = mkdtempSync(path.join(tmpdir(), 'cms-names-config-'));
    const { writeProfiles } = await import('../../src/sites/store.js');
    const profile = (name: string) => ({ name, url: site.url, username: site.username, appPassword: site.appPassword, groups: [] });
    writeProfiles({ version: 1, sites: [profile('north'), profile('south')] }, path.join(configHome, 'cms-admin', 'sites.json'));
    const env = { CMS_URL: undefined, CMS_USERNAME: undefined, CMS_APP_PASSWORD: undefined, CMS_SITE: undefined, XDG_CONFIG_HOME: configHome };
    const user = await makeUser();
    const run = await runCli(['invoke', '--sites', 'north', '--json', 'set-user-role', `id=${user.username}`, 'role=author'], { env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim()).site).toBe('north');
    expect(await rolesOf(user.id)).toEqual(['author']);
    const wrong = await runCli(['invoke', '--sites', 'north,west', 'set-user-role', `id=${user.username}`, 'role=editor'], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/No site "west".*north, south/);
    expect(await rolesOf(user.id)).toEqual(['author']);
  });
});

describe('plain words in undo and journal summaries (#52.11)', () => {
  it('the model’s undo of a create says "deleted … (it was created by change …)"; journal summaries name logins', async () => {
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const name = unique('Plain words');
    const made = await invoke({ tool: 'create-category', params: { name } }, context);
    expect(made.ok, JSON.stringify(made)).toBe(true);
    const id = (made as { result: { id: number } }).result.id;
    const [created] = await journal.entries();
    // The model's tool (undo-change) answers in words, as the CLI's undo does.
    const [undo] = new ChangesToolkit({ context, approvals: 'none' }).getTools().filter((t) => t.name === 'undo-change');
    const answer = JSON.parse(String(await undo!.invoke({ change_id: created!.change_id })));
    expect(answer.summary).toBe(`undo ${created!.change_id}: deleted category ${id} '${name}' (it was created by change ${created!.change_id})`);
    expect((await wp().get<Array<{ id: number }>>('/wp/v2/categories', { include: [id] })).length).toBe(0);
    const undoEntry = (await journal.entries()).at(-1)!;
    expect(undoEntry.summary).toContain(`: deleted category ${id} '${name}' (it was created by change ${created!.change_id})`);
    expect(undoEntry.summary).not.toMatch(/restored/);
    // A user tool's entry names the login where its answer knows it, not "user N" alone.
    const user = await makeUser();
    const out = await invoke({ tool: 'log-out-user', params: { user_id: user.username } }, context);
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect((await journal.entries()).at(-1)!.summary).toBe(`logged out user ${user.id} (${user.username})`);
  });
});
