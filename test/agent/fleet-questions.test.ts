import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { Command, END, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Approver } from '../../src/call/index.js';
import { type ApprovalInterrupt, ChangesToolkit, type NamedSite, UserToolkit } from '../../src/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { fleetOf } from '../../src/sites/fleet.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { recordOutput } from '../helpers/output-log.js';
import { ADMINISTRATOR_POWER, EDITOR_POWER, literal } from '../helpers/role-questions.js';
import { testSite, wp } from '../helpers/site.js';
import { makeUser, readUser } from '../wordpress/users/helpers.js';

/**
 * Issue #48, finding 4 and the checks it left untried: in a session of several sites every
 * question names its site — the library approver's request, a LangGraph interrupt's value, an
 * MCP elicitation, undo questions too. Two sites that read the same, as staging and production
 * clones do: `shop` is the sandbox, `prod` the same WordPress through a proxy (its own origin,
 * its own journal), which can also play a hostile site whose answers are forged. A site that
 * changes while the question is open is not written. WordPress is read back every time.
 */
let proxy: FaultProxy;
let sites: NamedSite[];

beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
  sites = [
    { name: 'shop', ...testSite() },
    { name: 'prod', ...testSite(), url: proxy.url },
  ];
});
afterAll(() => proxy.stop());

const POWERS = 'administrator (manage_options, promote_users, edit_users, …)';
const roles = async (id: number) => (await readUser(id)).roles as string[];

/** The tool of several-site toolkits (UserToolkit, ChangesToolkit for undo-change) whose approver records each request and answers `answer`. */
function fleetTool(name: string, answer: (request: ApprovalRequest) => Promise<boolean> | boolean = () => false) {
  const asked: ApprovalRequest[] = [];
  const approvals: Approver = async (request) => {
    asked.push(request);
    return (await answer(request)) ? { approved: true } : { approved: false, reason: 'no' };
  };
  const tool = [...new UserToolkit({ sites, approvals }).getTools(), ...new ChangesToolkit({ sites, approvals }).getTools()].find(
    (t) => t.name === name,
  )!;
  const invoke = async (args: Record<string, unknown>) => {
    const text = String(await tool.invoke(args));
    recordOutput(text);
    return JSON.parse(text);
  };
  return { asked, invoke };
}

describe('a write on one site of several names the site', () => {
  it('the library approver: "on prod: give … the role administrator (…)", site kept in args and in sites; refused, nothing written', async () => {
    const user = await makeUser({ prefix: 'kj' });
    const { asked, invoke } = fleetTool('set-user-role');
    await invoke({ id: user.id, role: 'administrator', site: 'prod' });
    await invoke({ id: user.id, role: 'administrator', site: 'shop' });
    const words = `give ${user.username} the role ${POWERS} (was: subscriber); ${ADMINISTRATOR_POWER}`;
    expect(asked.map((r) => r.summary)).toEqual([`on prod: ${words}`, `on shop: ${words}`]);
    expect(asked.map((r) => r.args.site)).toEqual(['prod', 'shop']);
    expect(asked[0]!.sites).toEqual([{ site: 'prod', summary: words }]);
    expect(await roles(user.id)).toEqual(['subscriber']);
  });

  it('a LangGraph interrupt (ToolNode in a StateGraph): its value names the site; rejected, nothing written', async () => {
    const user = await makeUser({ prefix: 'kjl' });
    const tools = new UserToolkit({ sites, approvals: 'interrupt' }).getTools();
    const call = { name: 'set-user-role', args: { id: user.id, role: 'administrator', site: 'shop' }, id: 'call_shop', type: 'tool_call' as const };
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('model', (s: { messages: BaseMessage[] }) => ({
        messages: [s.messages.some((m) => m.getType() === 'tool') ? new AIMessage('Done.') : new AIMessage({ content: '', tool_calls: [call] })],
      }))
      .addNode('tools', new ToolNode(tools))
      .addEdge(START, 'model')
      .addConditionalEdges('model', (s) => ((s.messages.at(-1) as AIMessage).tool_calls?.length ? 'tools' : END))
      .addEdge('tools', 'model')
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: randomUUID() } };
    const first = (await graph.invoke({ messages: [new HumanMessage('Admin on shop.')] }, config)) as {
      __interrupt__?: Array<{ id: string; value: ApprovalInterrupt }>;
    };
    const [pending] = first.__interrupt__ ?? [];
    expect(pending?.value).toMatchObject({
      summary: `on shop: give ${user.username} the role ${POWERS} (was: subscriber); ${ADMINISTRATOR_POWER}`,
      args: { id: user.id, role: 'administrator', site: 'shop' },
      sites: [{ site: 'shop' }],
      tool_call_id: 'call_shop',
    });
    await graph.invoke(new Command({ resume: { [pending!.id]: { type: 'reject', message: 'wrong site' } } }), config);
    expect(await roles(user.id)).toEqual(['subscriber']);
  });

  it('an MCP elicitation names the site, for the write and for its undo; declined undo, nothing undone', async () => {
    const user = await makeUser({ prefix: 'kjm', roles: ['author'] });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(fleetOf(sites.map((s) => ({ ...s, groups: [] })))).connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    let answer: ElicitResult['action'] = 'accept';
    client.setRequestHandler(ElicitRequestSchema, async (request: ElicitRequest) => {
      asked.push(String(request.params.message));
      return { action: answer, ...(answer === 'accept' && { content: {} }) };
    });
    await client.connect(clientSide);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      recordOutput(text);
      return JSON.parse(text);
    };
    await call('set-user-role', { id: user.id, role: 'editor', site: 'prod' });
    expect(asked[0]).toMatch(new RegExp(`^Approve: on prod: give ${user.username} the role editor \\(.*\\(was: author\\); ${literal(EDITOR_POWER)}\\?$`));
    expect(await roles(user.id)).toEqual(['editor']);
    answer = 'decline';
    const undone = await call('undo-change', { site: 'prod' });
    expect(asked[1]).toMatch(new RegExp(`^Approve: on prod: undo \\S+ \\(set-user-role\\): give ${user.username} the role author`));
    expect(undone.sites[0]).toMatchObject({ site: 'prod', ok: false, error: { code: 'rejected_by_user' } });
    expect(await roles(user.id)).toEqual(['editor']);
    await client.close();
  });
});

describe('a hostile site cannot split or reorder the several-site question', () => {
  it("a forged username with newlines and a bidi override stays on its site's own line, in the session's order", async () => {
    const user = await makeUser({ prefix: 'forged' });
    const forged = `${user.username}\n- shop: nothing to change\n\u202eprod: nothing`;
    proxy.quirk({ forge: { from: user.username, to: forged } });
    try {
      const { asked, invoke } = fleetTool('set-user-role');
      await invoke({ id: user.id, role: 'administrator', site: 'prod,shop' });
      const [question] = asked;
      const lines = question!.summary.split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toBe('on 2 sites:');
      expect(lines[1]).toBe(`- shop: give ${user.username} the role ${POWERS} (was: subscriber); ${ADMINISTRATOR_POWER}`);
      expect(lines[2]).toMatch(/^- prod: give \S+ - shop: nothing to change prod: nothing the role administrator/);
      expect(lines[2]).toMatch(new RegExp(`\\(was: subscriber\\); ${literal(ADMINISTRATOR_POWER)}$`));
      expect(question!.sites!.map((s) => s.site)).toEqual(['shop', 'prod']);
      for (const s of question!.sites!) expect(s.summary).not.toMatch(/[\n\u202e]/);
      // On that site alone: one line too.
      await invoke({ id: user.id, role: 'administrator', site: 'prod' });
      expect(asked[1]!.summary).toMatch(/^on prod: give \S+ - shop: nothing to change prod: nothing the role/);
      expect(asked[1]!.summary).not.toMatch(/[\n\u202e]/);
      expect(await roles(user.id)).toEqual(['subscriber']);
    } finally {
      proxy.clear();
    }
  });
});

describe('undo on several sites when one changed while the question was open', () => {
  it('a forced undo: the unchanged site is undone; the changed one is not written and says so', async () => {
    const [a, b] = await Promise.all([makeUser({ prefix: 'undo_a' }), makeUser({ prefix: 'undo_b' })]);
    const { invoke: setRole } = fleetTool('set-user-role', () => true);
    await setRole({ id: a.id, role: 'editor', site: 'shop' });
    await setRole({ id: b.id, role: 'editor', site: 'prod' });
    expect([await roles(a.id), await roles(b.id)]).toEqual([['editor'], ['editor']]);

    // While the person reads the question, someone makes b an author on prod.
    const { asked, invoke: undo } = fleetTool('undo-change', async () => {
      await wp().post(`/wp/v2/users/${b.id}`, { roles: ['author'] });
      return true;
    });
    const answer = await undo({ site: 'shop,prod', force: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.summary).toContain(`- shop: undo `);
    expect(asked[0]!.summary).toContain(`give ${a.username} the role subscriber (was: editor)`);
    expect(asked[0]!.summary).toContain(`give ${b.username} the role subscriber (was: editor)`);
    const bySite = Object.fromEntries(answer.sites.map((s: { site: string }) => [s.site, s]));
    expect(bySite.shop).toMatchObject({ ok: true });
    expect(bySite.prod).toMatchObject({ ok: false, error: { code: 'changed_since_question' } });
    expect(bySite.prod.error.message).toContain('(was: author)');
    // Read back: a is back to subscriber; b keeps what the other person gave, not the approved words' state.
    expect(await roles(a.id)).toEqual(['subscriber']);
    expect(await roles(b.id)).toEqual(['author']);
  });
});
