import { MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, HumanMessage } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toolsetsMiddleware } from '../../src/agent/toolsets.js';
import { allLangChainTools, ChangesToolkit, TaxonomyToolkit, UserToolkit } from '../../src/toolkits.js';
import { TOOLSET_NAMES } from '../../src/call/index.js';
import { lastToolResult, scriptedSession } from '../helpers/agent.js';
import { openAiChatProblems } from '../helpers/provider-rules.js';
import { type ChatRequest, ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testContext } from '../helpers/site.js';
import { expectFirstUsersPage } from '../helpers/users-page.js';
import { memoryJournal } from '../../src/undo/journal.js';

/**
 * Toolsets (issue #51) in the chat runner and in a developer's LangGraph agent: the model asks for
 * a toolset it lacks with enable-toolset and calls one of its tools in the next step. The model is
 * the real ChatOpenAI against a scripted server that refuses what OpenAI refuses (duplicate names too).
 */
let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI({ rules: openAiChatProblems }).start();
});
afterAll(() => server.stop());
beforeEach(() => server.clear());

/** Every toolset but these: a session that lacks exactly them. */
const allBut = (...left: string[]) => TOOLSET_NAMES.filter((name) => !left.includes(name));
const sent = (request: ChatRequest | undefined) => (request?.tools ?? []).map((tool) => tool.function.name);
const enableDescription = (request: ChatRequest | undefined) =>
  request?.tools?.find((tool) => tool.function.name === 'enable-toolset')?.function.description ?? '';
const model = () =>
  new ChatOpenAI({ model: 'scripted-model', apiKey: 'test-key', configuration: { baseURL: server.url }, maxRetries: 0 });

describe('the chat runner', () => {
  it('a model lacking the users toolset enables it, then lists users with it in the next step', async () => {
    const { session } = scriptedSession(server, { filter: { toolsets: allBut('users', 'changes') } });
    server.script(
      { toolCalls: [{ name: 'list-users', args: {} }] },
      { toolCalls: [{ name: 'enable-toolset', args: { toolset: 'users' } }] },
      { toolCalls: [{ name: 'list-users', args: { limit: 100 } }] },
      (request) => ({ content: `${lastToolResult(request).items.length} users.` }),
    );
    const start = server.requests.length;
    const turn = await session.turn('Who has an account?');
    expect(turn.stopped).toBeUndefined();
    const [first, second, third] = server.requests.slice(start);
    // Before: no users toolset, and enable-toolset naming what it can add, in a few words each.
    expect(sent(first)).not.toContain('list-users');
    expect(sent(first)).toContain('get-cms-tags');
    expect(enableDescription(first)).toBe(
      "Adds a toolset. Not enabled: users (accounts, passwords, sessions); changes (list and undo changes).",
    );
    // A tool of a toolset not enabled is refused, naming the way to it.
    expect(turn.toolCalls[0]).toMatchObject({ name: 'list-users', ok: false });
    expect(JSON.parse(turn.toolCalls[0]!.result!).error.hint).toBe('Call enable-toolset with {"toolset": "users"} first.');
    expect(sent(second)).not.toContain('list-users');
    // After enabling: the next request carries the users toolset; enable-toolset offers only changes.
    expect(JSON.parse(turn.toolCalls[1]!.result!)).toMatchObject({ enabled: 'users' });
    expect(JSON.parse(turn.toolCalls[1]!.result!).toolsets).toContain('users');
    expect(sent(third)).toContain('list-users');
    expect(enableDescription(third)).toBe("Adds a toolset. Not enabled: changes (list and undo changes).");
    expect(turn.toolCalls[2]!.ok).toBe(true);
    await expectFirstUsersPage(JSON.parse(turn.toolCalls[2]!.result!));
    expect(session.toolsets).toContain('users');
    expect(session.toolsets).not.toContain('changes');
    expect(session.toolNames).toContain('list-users');
    // The session keeps it: the next turn's first request carries the users toolset.
    server.script({ content: 'ok' });
    await session.turn('thanks');
    expect(sent(server.requests.at(-1))).toContain('list-users');
  });

  it('with every toolset enabled there is no enable-toolset', async () => {
    const { session } = scriptedSession(server, { filter: { toolsets: allBut('network', 'fleet') } });
    server.script({ content: 'ok' });
    await session.turn('hi');
    expect(sent(server.requests.at(-1))).not.toContain('enable-toolset');
  });
});

describe('a LangGraph agent built from the toolkits', () => {
  it('toolsetsMiddleware: enable-toolset in the graph, per thread', async () => {
    const agent = createAgent({
      model: model(),
      tools: allLangChainTools({ context: testContext(), toolsets: 'all', approvals: 'none' }),
      middleware: [toolsetsMiddleware({ toolsets: allBut('users') })],
      checkpointer: new MemorySaver(),
    });
    server.script(
      { toolCalls: [{ name: 'enable-toolset', args: { toolset: 'users' } }] },
      { toolCalls: [{ name: 'list-users', args: { limit: 100 } }] },
      (request) => ({ content: `${lastToolResult(request).items.length} users.` }),
    );
    const a = { configurable: { thread_id: 'a' } };
    const start = server.requests.length;
    await agent.invoke({ messages: [new HumanMessage('Who has an account?')] }, a);
    const [first, second, third] = server.requests.slice(start);
    expect(sent(first)).not.toContain('list-users');
    expect(sent(first)).toContain('enable-toolset');
    expect(sent(second)).toContain('list-users');
    await expectFirstUsersPage(lastToolResult(third!));
    // Another thread starts from the middleware's toolsets again.
    server.script({ content: 'ok' });
    await agent.invoke({ messages: [new HumanMessage('hi')] }, { configurable: { thread_id: 'b' } });
    expect(sent(server.requests.at(-1))).not.toContain('list-users');
    server.script({ content: 'ok' });
    await agent.invoke({ messages: [new HumanMessage('again')] }, a);
    expect(sent(server.requests.at(-1))).toContain('list-users');
  });

  it('the toolkits spread together reach a provider that refuses duplicate names, each tool once (#52.13)', async () => {
    const context = { ...testContext(), journal: memoryJournal() };
    // The rule bites: the same tool twice is refused as OpenAI would.
    const twice = [...new TaxonomyToolkit({ context }).getTools(), ...new TaxonomyToolkit({ context }).getTools()];
    server.script({ content: 'unused' });
    const refused = server.refused.length;
    await expect(createAgent({ model: model(), tools: twice }).invoke({ messages: [new HumanMessage('hi')] })).rejects.toThrow(
      /duplicate function name/,
    );
    server.clear();
    const tools = [
      ...new TaxonomyToolkit({ context }).getTools(),
      ...new UserToolkit({ context }).getTools(),
      ...new ChangesToolkit({ context }).getTools(),
    ];
    server.script({ toolCalls: [{ name: 'list-changes', args: { limit: 1 } }] }, { content: 'done' });
    const result = await createAgent({ model: model(), tools }).invoke({ messages: [new HumanMessage('What changed?')] });
    expect(server.refused.slice(refused)).toEqual([expect.stringMatching(/duplicate function name 'get-cms-categories'/)]);
    expect(String(result.messages.at(-1)?.content)).toBe('done');
    expect(JSON.parse(String(result.messages.at(-2)?.content))).toMatchObject({ items: [] });
    const names = sent(server.requests.at(-1));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['get-cms-tags', 'list-users', 'list-changes', 'undo-change']));
  });
});
