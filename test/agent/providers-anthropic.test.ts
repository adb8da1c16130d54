import { ChatAnthropic } from '@langchain/anthropic';
import { type AIMessage, HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from 'langchain';
import { allLangChainTools } from '../../src/toolkits.js';
import { lastToolResultBlock, ScriptedAnthropic } from '../helpers/scripted-anthropic.js';
import { testContext, unique, wp } from '../helpers/site.js';
import { resolveToolsets, selectTools, tools } from '../../src/call/index.js';

// A single site's tools (the network tools are listed only on a network).
// The toolkits' default set (#51).
const registry = selectTools(tools, { toolsets: resolveToolsets(undefined) });
import { memoryJournal } from '../../src/undo/journal.js';

/** With a journal the toolkits give every tool, the change tools included (without one they are left out). */
const journalled = { ...testContext(), journal: memoryJournal() };

/**
 * ChatAnthropic (@langchain/anthropic) over real HTTP against a scripted Messages API server
 * that refuses what Anthropic refuses (tool names, input_schema, strict tools' schemas).
 */
let server: ScriptedAnthropic;
beforeAll(async () => {
  server = await new ScriptedAnthropic().start();
});
afterAll(() => server.stop());
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

const model = () =>
  new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'test-key', anthropicApiUrl: server.url, maxRetries: 0 });
const newCategory = () => wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Anthropic cat') });
const nameOf = async (id: number) => (await wp().get<{ name: string }>(`/wp/v2/categories/${id}`)).name;

describe('ChatAnthropic', () => {
  it('createAgent: tool_use → our tool on the site → tool_result → answer', async () => {
    const category = await newCategory();
    const renamed = unique('Claude');
    const agent = createAgent({ model: model(), tools: allLangChainTools({ context: journalled }) });
    server.script(
      { toolCalls: [{ name: 'update-category', args: { id: category.id, name: renamed } }] },
      (request) => ({
        content: `Now "${lastToolResultBlock(request).name}".`,
      }),
    );
    const state = await agent.invoke({ messages: [{ role: 'user', content: 'Rename it' }] });
    expect(server.refused).toEqual([]);
    expect(state.messages.at(-1)!.text).toBe(`Now "${renamed}".`);
    expect(await nameOf(category.id)).toBe(renamed);
    const tools = server.requests.at(-1)!.tools as Array<{ name: string; input_schema: { type: string } }>;
    expect(tools).toHaveLength(registry.length);
  });

  it('strict tool use: strict schemas are accepted and the model’s nulls read as "not given"', async () => {
    const category = await newCategory();
    const renamed = unique('Strict Claude');
    const tools = allLangChainTools({ context: journalled, strict: true });
    const bound = model().bindTools(tools, { strict: true } as never);
    server.script(
      { toolCalls: [{ name: 'update-category', args: { id: category.id, name: renamed, parent: null } }] },
      (request) => ({
        content: `Now "${lastToolResultBlock(request).name}".`,
      }),
    );
    const messages: Array<HumanMessage | AIMessage | ToolMessage> = [new HumanMessage('Rename it')];
    const first = (await bound.invoke(messages)) as AIMessage;
    messages.push(first);
    for (const call of first.tool_calls ?? []) {
      const tool = tools.find((t) => t.name === call.name)!;
      messages.push((await tool.invoke({ ...call, type: 'tool_call' })) as ToolMessage);
    }
    const answer = await bound.invoke(messages);
    expect(server.refused).toEqual([]);
    expect((server.requests.at(-1)!.tools as Array<{ strict?: boolean }>).every((t) => t.strict === true)).toBe(true);
    expect(answer.content).toBe(`Now "${renamed}".`);
    expect(await nameOf(category.id)).toBe(renamed);
  });

  it('strict tool use with the default schemas is refused, and the user is told what to change', async () => {
    const bound = model().bindTools(allLangChainTools({ context: journalled }), { strict: true } as never);
    const error = await bound.invoke([new HumanMessage('hi')]).catch((err: Error) => err);
    expect(String((error as Error).message)).toContain('additionalProperties must be false');
  });
});
