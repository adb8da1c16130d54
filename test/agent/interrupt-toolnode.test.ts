import { randomUUID } from 'node:crypto';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { Command, END, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalInterrupt } from '../../src/index.js';
import { UserToolkit } from '../../src/index.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { createContext } from '../../src/config.js';
import type { ToolContext } from '../../src/call/index.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { testContext, testSite } from '../helpers/site.js';
import { type Fixture, makeUser, readUser } from '../wordpress/users/helpers.js';

/**
 * Issue #48, finding 1: several calls wait on LangGraph interrupts at once and the person decides
 * each. LangGraph hands a task's answers to its interrupt() calls by order, and the prebuilt
 * ToolNode runs a message's tool calls in ONE task, each reaching interrupt() when its site reads
 * finish. Each call must get the answer given to its own question; an answer that cannot be tied
 * to its question runs nothing. Real LangGraph with a checkpointer; WordPress read back.
 */
type Pending = Array<{ id: string; value: ApprovalInterrupt }>;
type Decide = (question: ApprovalInterrupt) => { type: 'approve' } | { type: 'reject'; message: string };

const promote = (user: Fixture) => ({ name: 'set-user-role', args: { id: user.id, role: 'administrator' } });
const toolResults = (messages: BaseMessage[]) =>
  Object.fromEntries(
    messages.filter((m) => m.getType() === 'tool').map((m) => [(m as { tool_call_id?: string }).tool_call_id, JSON.parse(String(m.content))]),
  );

/** A StateGraph as many LangGraph apps build it: a model node, the prebuilt ToolNode, a checkpointer. */
function toolNodeApp(calls: Array<{ name: string; args: Record<string, unknown> }>, context: ToolContext = testContext()) {
  const tools = new UserToolkit({ context, approvals: 'interrupt' }).getTools();
  const ids = calls.map((_, i) => `call_${i}_${randomUUID().slice(0, 8)}`);
  // The "model": the tool calls at first, then a closing message once their results are in.
  const model = (state: { messages: BaseMessage[] }) =>
    state.messages.some((m) => m.getType() === 'tool')
      ? { messages: [new AIMessage('Done.')] }
      : { messages: [new AIMessage({ content: '', tool_calls: calls.map((c, i) => ({ ...c, id: ids[i]!, type: 'tool_call' as const })) })] };
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('model', model)
    .addNode('tools', new ToolNode(tools))
    .addEdge(START, 'model')
    .addConditionalEdges('model', (s) => ((s.messages.at(-1) as AIMessage).tool_calls?.length ? 'tools' : END))
    .addEdge('tools', 'model')
    .compile({ checkpointer: new MemorySaver() });
  return { graph, ids, config: { configurable: { thread_id: randomUUID() } } };
}

/** Resumes, answering each question shown by what it says (as a person would), until none waits. */
async function answerAll(
  run: (input: unknown) => Promise<{ __interrupt__?: Pending; messages: BaseMessage[] }>,
  first: { __interrupt__?: Pending; messages: BaseMessage[] },
  decide: Decide,
  asked: ApprovalInterrupt[],
) {
  let out = first;
  for (let round = 0; out.__interrupt__?.length; round++) {
    if (round > 10) throw new Error('still asking after 10 rounds');
    asked.push(...out.__interrupt__.map((p) => p.value));
    out = await run(new Command({ resume: Object.fromEntries(out.__interrupt__.map((p) => [p.id, decide(p.value)])) }));
  }
  return out;
}

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
});
afterAll(() => proxy.stop());

describe('ToolNode in a StateGraph: three set-user-role calls wait together', () => {
  it('the person approves a and c and rejects b: a and c become administrators, b does not, and each result is its own', async () => {
    const [a, b, c] = await Promise.all(['tna', 'tnb', 'tnc'].map((prefix) => makeUser({ prefix })));
    // The site answers about a slowest and b slower than c, on every run: the calls reach
    // interrupt() as c, b, a. So the run after c is approved and has run (its review now asks
    // nothing), b and a come first to the answers given to c's and b's questions.
    const slow = (user: Fixture, ms: number) => ({ method: 'GET', path: new RegExp(`/wp/v2/users/${user.id}(?:[?/]|$)`), fault: { kind: 'delay' as const, ms } });
    proxy.clear().inject(slow(a!, 700)).inject(slow(b!, 350));
    const { graph, ids, config } = toolNodeApp([promote(a!), promote(b!), promote(c!)], createContext({ ...testSite(), url: proxy.url }));
    const run = (input: unknown) => graph.invoke(input as never, config) as never;
    const first = await run({ messages: [new HumanMessage('Make a, b and c administrators.')] });
    const asked: ApprovalInterrupt[] = [];
    const decide: Decide = (q) =>
      q.summary.includes(b!.username) ? { type: 'reject', message: `Not ${b!.username}.` } : { type: 'approve' };
    const out = await answerAll(run, first, decide, asked);

    expect((await readUser(b!.id)).roles).toEqual(['subscriber']);
    const results = toolResults(out.messages);
    expect(results[ids[0]!]).toMatchObject({ username: a!.username, roles: ['administrator'] });
    expect(results[ids[1]!].error).toMatchObject({ code: 'rejected_by_user', message: expect.stringContaining(`Not ${b!.username}.`) });
    expect(results[ids[2]!]).toMatchObject({ username: c!.username, roles: ['administrator'] });
    expect((await readUser(a!.id)).roles).toEqual(['administrator']);
    expect((await readUser(b!.id)).roles).toEqual(['subscriber']);
    expect((await readUser(c!.id)).roles).toEqual(['administrator']);
    // One question at a time, in the order the site answered: c, b, a.
    expect(asked.map((q) => q.tool_call_id)).toEqual([ids[2], ids[1], ids[0]]);
    // Every question names its user and carries its own call's id.
    for (const q of asked) {
      const user = [a!, b!, c!].find((u) => q.summary.includes(u.username))!;
      expect(q.tool_call_id).toBe(ids[[a, b, c].indexOf(user)]);
      expect(q.summary).toMatch(/role administrator \(manage_options/);
    }
  });

  it('answered with bare decisions, one per question shown: each still reaches its own call', async () => {
    const [a, b] = await Promise.all(['tnx', 'tny'].map((prefix) => makeUser({ prefix })));
    const { graph, config } = toolNodeApp([promote(a!), promote(b!)]);
    let out = (await graph.invoke({ messages: [new HumanMessage('Both admins.')] }, config)) as { __interrupt__?: Pending };
    for (let round = 0; out.__interrupt__?.length; round++) {
      expect(round).toBeLessThan(6);
      const [only, ...more] = out.__interrupt__;
      expect(more).toEqual([]);
      const resume = only!.value.summary.includes(a!.username) ? { type: 'reject', message: 'not a' } : { type: 'approve' };
      out = (await graph.invoke(new Command({ resume }), config)) as { __interrupt__?: Pending };
    }
    expect((await readUser(a!.id)).roles).toEqual(['subscriber']);
    expect((await readUser(b!.id)).roles).toEqual(['administrator']);
  });

  it("an answer sent under another question's id (a's, while b's waits) or naming another call runs nothing: b is asked again", async () => {
    const [a, b] = await Promise.all(['tns', 'tnt'].map((prefix) => makeUser({ prefix })));
    const { graph, ids, config } = toolNodeApp([promote(a!), promote(b!)]);
    const run = (input: unknown) => graph.invoke(input as never, config) as Promise<{ __interrupt__?: Pending }>;
    let out = await run({ messages: [new HumanMessage('Both admins.')] });
    const seen: Pending = [];
    // Answer the first question shown with a rejection, keeping its id.
    const firstShown = out.__interrupt__![0]!;
    seen.push(firstShown);
    out = await run(new Command({ resume: { [firstShown.id]: { type: 'reject', message: 'no' } } }));
    const other = out.__interrupt__![0]!;
    expect(other.value.tool_call_id).not.toBe(firstShown.value.tool_call_id);
    // The app replays the first question's id with an approval: LangGraph hands it to the waiting question.
    out = await run(new Command({ resume: { [firstShown.id]: { type: 'approve' } } }));
    const again = out.__interrupt__![0]!;
    expect(again.value).toMatchObject({ tool_call_id: other.value.tool_call_id, summary: other.value.summary });
    // An approval that names the first call, sent to the second's question: not taken either.
    out = await run(new Command({ resume: { [again.id]: { type: 'approve', tool_call_id: firstShown.value.tool_call_id } } }));
    expect(out.__interrupt__![0]!.value.tool_call_id).toBe(other.value.tool_call_id);
    expect((await readUser(a!.id)).roles).toEqual(['subscriber']);
    expect((await readUser(b!.id)).roles).toEqual(['subscriber']);
    expect(ids).toContain(other.value.tool_call_id);
  });
});

describe('createAgent: three calls wait together', () => {
  let server: ScriptedOpenAI;
  beforeAll(async () => {
    server = await new ScriptedOpenAI().start();
  });
  afterAll(() => server.stop());

  function agentApp() {
    const model = new ChatOpenAI({ model: 'scripted', apiKey: 'x', configuration: { baseURL: server.url }, maxRetries: 0 });
    const tools = new UserToolkit({ context: testContext(), approvals: 'interrupt' }).getTools();
    return { agent: createAgent({ model, tools, checkpointer: new MemorySaver() }), config: { configurable: { thread_id: randomUUID() } } };
  }

  it('a bare decision while three wait runs none of them and asks again; a map of decisions by id then decides each', async () => {
    const [a, b, c] = await Promise.all(['caa', 'cab', 'cac'].map((prefix) => makeUser({ prefix })));
    server.clear();
    server.script({ toolCalls: [promote(a!), promote(b!), promote(c!)] }, { content: 'Done.' });
    const { agent, config } = agentApp();
    const run = (input: unknown) => agent.invoke(input as never, config) as never as Promise<{ __interrupt__?: Pending; messages: BaseMessage[] }>;
    const first = await run({ messages: [new HumanMessage('Three admins.')] });
    expect(first.__interrupt__).toHaveLength(3);

    const bare = await run(new Command({ resume: { type: 'approve' } }));
    expect(bare.__interrupt__).toHaveLength(3);
    expect(bare.__interrupt__!.map((p) => [p.value.asked, p.value.slot])).toEqual([[1, 1], [1, 1], [1, 1]]);
    for (const user of [a!, b!, c!]) expect((await readUser(user.id)).roles).toEqual(['subscriber']);

    const decide: Decide = (q) => (q.summary.includes(b!.username) ? { type: 'reject', message: 'not b' } : { type: 'approve' });
    await answerAll(run, bare, decide, []);
    expect((await readUser(a!.id)).roles).toEqual(['administrator']);
    expect((await readUser(b!.id)).roles).toEqual(['subscriber']);
    expect((await readUser(c!.id)).roles).toEqual(['administrator']);
  });
});
