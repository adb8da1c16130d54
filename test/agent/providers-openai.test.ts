import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatSession } from '../../src/agent/runner.js';
import { allLangChainTools } from '../../src/toolkits.js';
import { lastToolResult } from '../helpers/agent.js';
import { openAiChatProblems } from '../helpers/provider-rules.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { lastFunctionOutput, ScriptedResponses } from '../helpers/scripted-responses.js';
import { testContext, unique, wp } from '../helpers/site.js';

/**
 * ChatOpenAI over real HTTP against scripted servers that refuse what OpenAI refuses
 * (provider-rules.ts): chat completions non-strict and strict, createAgent with responseFormat,
 * and the Responses API. Each completes a tool call on the sandbox, read back with wp().
 */
let chat: ScriptedOpenAI;
let responses: ScriptedResponses;
beforeAll(async () => {
  chat = await new ScriptedOpenAI({ rules: openAiChatProblems }).start();
  responses = await new ScriptedResponses().start();
});
afterAll(async () => {
  await chat.stop();
  await responses.stop();
});
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => {
  chat.clear();
  responses.clear();
});

async function newCategory() {
  return wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique('Provider cat') });
}
const nameOf = async (id: number) => (await wp().get<{ name: string }>(`/wp/v2/categories/${id}`)).name;
const model = (fields: Record<string, unknown> = {}) =>
  new ChatOpenAI({ model: 'gpt-4.1-mini', apiKey: 'test-key', configuration: { baseURL: chat.url }, maxRetries: 0, ...fields });
const approveAll = async () => ({ approved: true }) as const;

describe('ChatOpenAI, chat completions', () => {
  it.each([
    ['non-strict', false, {}],
    ['strict (supportsStrictToolCalling)', true, { supportsStrictToolCalling: true }],
  ])('%s: a tool call with nulls for the params left out renames the category', async (_label, strict, fields) => {
    const category = await newCategory();
    const renamed = unique('Renamed');
    const session = new ChatSession({ model: model(fields), context: testContext(), approver: approveAll, strict });
    chat.script({ toolCalls: [{ name: 'update-category', args: { id: category.id, name: renamed, parent: null } }] }, (request) => ({
      content: `Now "${lastToolResult(request).name}".`,
    }));
    const refusedBefore = chat.refused.length;
    const turn = await session.turn('Rename it');
    expect(chat.refused.slice(refusedBefore)).toEqual([]);
    expect(turn.stopped).toBeUndefined();
    expect(turn.answer).toBe(`Now "${renamed}".`);
    expect(await nameOf(category.id)).toBe(renamed);
    const sent = chat.requests.at(-1)!.tools!;
    expect(sent.every((t) => (t.function as { strict?: boolean }).strict === (strict || undefined))).toBe(true);
  });

  it('a strict provider refusing the default schemas: the user gets its message and what to change', async () => {
    const session = new ChatSession({ model: model({ supportsStrictToolCalling: true }), context: testContext(), approver: approveAll });
    const turn = await session.turn('List the categories');
    expect(turn.stopped?.reason).toBe('model_error');
    expect(turn.stopped?.message).toMatch(/\b400\b/);
    expect(turn.stopped?.message).toMatch(/Invalid schema for function '[a-z-]+'/);
    expect(turn.stopped?.message).toContain('enable `strict: true` on the toolkits');
  });
});

describe('createAgent with responseFormat (ChatOpenAI marks every tool strict)', () => {
  const Answer = z.object({ id: z.number(), name: z.string() });

  it('with strict: true on the tools: completes a tool call and returns the structured response', async () => {
    const category = await newCategory();
    const renamed = unique('Structured');
    const agent = createAgent({
      model: model(),
      tools: allLangChainTools({ context: testContext(), strict: true }),
      responseFormat: Answer,
    });
    chat.script({ toolCalls: [{ name: 'update-category', args: { id: category.id, name: renamed, parent: null } }] }, (request) => {
      const result = lastToolResult(request);
      return { content: JSON.stringify({ id: result.id, name: result.name }) };
    });
    const refusedBefore = chat.refused.length;
    const state = await agent.invoke({ messages: [{ role: 'user', content: 'Rename it' }] });
    expect(chat.refused.slice(refusedBefore)).toEqual([]);
    const request = chat.requests.at(-1)!;
    expect((request.response_format as { type: string }).type).toBe('json_schema');
    expect(request.tools!.every((t) => (t.function as { strict?: boolean }).strict === true)).toBe(true);
    expect(state.structuredResponse).toEqual({ id: category.id, name: renamed });
    expect(await nameOf(category.id)).toBe(renamed);
  });

  it('without strict: true OpenAI refuses the request (why the option exists)', async () => {
    const agent = createAgent({ model: model(), tools: allLangChainTools({ context: testContext() }), responseFormat: Answer });
    await expect(agent.invoke({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/Invalid schema for function/);
  });
});

describe('ChatOpenAI with the Responses API', () => {
  const responsesModel = () =>
    new ChatOpenAI({
      model: 'gpt-4.1-mini',
      apiKey: 'test-key',
      configuration: { baseURL: responses.url },
      useResponsesApi: true,
      maxRetries: 0,
    });

  it('strict tools (the Responses API default): createAgent completes a tool call on the site', async () => {
    const category = await newCategory();
    const renamed = unique('Responses');
    const agent = createAgent({ model: responsesModel(), tools: allLangChainTools({ context: testContext(), strict: true }) });
    responses.script({ toolCalls: [{ name: 'update-category', args: { id: category.id, name: renamed, parent: null } }] }, (request) => ({
      content: `Now "${lastFunctionOutput(request).name}".`,
    }));
    const state = await agent.invoke({ messages: [{ role: 'user', content: 'Rename it' }] });
    expect(responses.refused).toEqual([]);
    // LangChain sends `strict: null`: the Responses API's default, which is strict.
    const tools = responses.requests.at(-1)!.tools as Array<{ type: string; strict: boolean | null }>;
    expect(tools.every((t) => t.type === 'function' && t.strict !== false)).toBe(true);
    expect(state.messages.at(-1)!.text).toBe(`Now "${renamed}".`);
    expect(await nameOf(category.id)).toBe(renamed);
  });

  it('default schemas are refused there, with the hint to enable strict', async () => {
    const session = new ChatSession({ model: responsesModel(), context: testContext(), approver: approveAll });
    const turn = await session.turn('List the categories');
    expect(turn.stopped?.message).toMatch(/Invalid schema for function/);
    expect(turn.stopped?.message).toContain('strict: true');
  });
});
