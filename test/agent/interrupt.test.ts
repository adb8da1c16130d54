import { randomUUID } from 'node:crypto';
import { Command, MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, HumanMessage } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/call/index.js';
import { type Approvals, invoke, UserToolkit } from '../../src/index.js';
import { EDITOR_POWER, literal } from '../helpers/role-questions.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testContext, wp } from '../helpers/site.js';
import { newIdentity, newPassword } from '../wordpress/users/helpers.js';

/**
 * The toolkits in an app's own LangGraph agent (createAgent, the real ChatOpenAI against a
 * scripted server): a call that needs approval stops the run with an interrupt and runs only
 * when the app resumes with approve. Every outcome is read back from WordPress.
 */
let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
beforeEach(() => server.clear());

/** A fresh agent each time, as a new process would build it; only the checkpointer is shared. */
function buildAgent(approvals: Approvals | undefined, checkpointer?: MemorySaver) {
  const model = new ChatOpenAI({ model: 'scripted', apiKey: 'x', configuration: { baseURL: server.url }, maxRetries: 0 });
  const tools = new UserToolkit({ context: testContext(), ...(approvals && { approvals }) }).getTools();
  return createAgent({ model, tools, checkpointer });
}

async function findUser(username: string) {
  const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
  return found.find((u) => u.username === username);
}

/**
 * The checkpointer's whole state through JSON, into a new saver: what a database checkpointer
 * stores between processes. A resume from it needs nothing from the first run's memory.
 */
function throughJson(saver: MemorySaver): MemorySaver {
  const bytes = (_key: string, value: unknown) =>
    value instanceof Uint8Array ? { $bytes: Buffer.from(value).toString('base64') } : value;
  const back = (_key: string, value: unknown) =>
    value && typeof value === 'object' && '$bytes' in value ? new Uint8Array(Buffer.from(String(value.$bytes), 'base64')) : value;
  const copy = new MemorySaver();
  copy.storage = JSON.parse(JSON.stringify(saver.storage, bytes), back);
  copy.writes = JSON.parse(JSON.stringify(saver.writes, bytes), back);
  return copy;
}

const adminCall = () => {
  const { username, email } = newIdentity('admin');
  return { name: 'create-user', args: { username, email, password: newPassword(), role: 'administrator' } };
};
const toolResults = (request: { messages: Array<{ role: string; content?: unknown; tool_call_id?: string }> }) =>
  request.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(String(m.content)));

type Interrupted = { __interrupt__?: Array<{ id: string; value: ApprovalRequest & { type: string } }> };

describe("approvals: 'interrupt'", () => {
  it.each(['reject', 'approve'] as const)(
    'creating an administrator stops with an interrupt naming the user and the role; %s on resume',
    async (decision) => {
      const checkpointer = new MemorySaver();
      const config = { configurable: { thread_id: randomUUID() } };
      const call = adminCall();
      server.script({ toolCalls: [call] });
      const first = (await buildAgent('interrupt', checkpointer).invoke(
        { messages: [new HumanMessage('Make an admin.')] },
        config,
      )) as Interrupted;
      const [pending, ...more] = first.__interrupt__ ?? [];
      expect(more).toEqual([]);
      expect(pending?.value).toMatchObject({ type: 'approval', tool: 'create-user', allowed: ['approve', 'reject'] });
      // The role's powers are read from the site, not taken from the model's words.
      expect(pending?.value.summary).toContain(`create the user ${call.args.username}`);
      expect(pending?.value.summary).toMatch(/role administrator \(manage_options/);
      expect(pending?.value.args.password).toBe('[REDACTED]');
      expect(JSON.stringify(first.__interrupt__)).not.toContain(call.args.password);
      expect(await findUser(call.args.username)).toBeUndefined();

      let result: any;
      server.script((request) => {
        result = toolResults(request).at(-1);
        return { content: 'Done.' };
      });
      const resume = decision === 'approve' ? { type: 'approve' } : { type: 'reject', message: 'No new admins today.' };
      // Resumed by another agent, from the saved state gone through JSON: as another process would.
      const second = (await buildAgent('interrupt', throughJson(checkpointer)).invoke(new Command({ resume }), config)) as Interrupted;
      expect(second.__interrupt__ ?? []).toEqual([]);
      if (decision === 'reject') {
        expect(result.error).toMatchObject({ code: 'rejected_by_user' });
        expect(result.error.message).toContain('No new admins today.');
        expect(await findUser(call.args.username)).toBeUndefined();
      } else {
        expect(result).toMatchObject({ username: call.args.username });
        expect((await findUser(call.args.username))?.roles).toEqual(['administrator']);
      }
    },
  );

  it('the site changed before the resume: the approval given to the old question does not run the new one, which is asked', async () => {
    const { username, email } = newIdentity('drift');
    const user = await wp().post<{ id: number }>('/wp/v2/users', { username, email, password: newPassword(), roles: ['author'] });
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: randomUUID() } };
    server.script({ toolCalls: [{ name: 'set-user-role', args: { id: user.id, role: 'editor' } }] });
    const first = (await buildAgent('interrupt', checkpointer).invoke({ messages: [new HumanMessage('Make them an editor.')] }, config)) as Interrupted;
    const [asked] = first.__interrupt__ ?? [];
    expect(asked?.value).toMatchObject({ tool: 'set-user-role', asked: 0 });
    expect(asked?.value.summary).toMatch(new RegExp(`\\(was: author\\); ${literal(EDITOR_POWER)}$`));

    // Someone else changes the account while the question waits (hours, another process).
    await wp().post(`/wp/v2/users/${user.id}`, { roles: ['contributor'] });
    const process2 = throughJson(checkpointer);
    const second = (await buildAgent('interrupt', process2).invoke(new Command({ resume: { type: 'approve' } }), config)) as Interrupted;
    const [again, ...more] = second.__interrupt__ ?? [];
    expect(more).toEqual([]);
    expect(again?.value).toMatchObject({ tool: 'set-user-role', asked: 1 });
    expect(again?.value.summary).toMatch(new RegExp(`\\(was: contributor\\); ${literal(EDITOR_POWER)}$`));
    expect((await findUser(username))?.roles).toEqual(['contributor']);

    let result: any;
    server.script((request) => {
      result = toolResults(request).at(-1);
      return { content: 'Done.' };
    });
    const third = (await buildAgent('interrupt', throughJson(process2)).invoke(new Command({ resume: { type: 'approve' } }), config)) as Interrupted;
    expect(third.__interrupt__ ?? []).toEqual([]);
    expect(result).toMatchObject({ roles: ['editor'], previous_roles: ['contributor'] });
    expect((await findUser(username))?.roles).toEqual(['editor']);
  });

  it('two parallel risky calls are each decided: one approved, one rejected, each gets a result', async () => {
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: randomUUID() } };
    const [a, b] = [adminCall(), adminCall()];
    server.script({ toolCalls: [a, b] });
    const first = (await buildAgent('interrupt', checkpointer).invoke(
      { messages: [new HumanMessage('Two admins.')] },
      config,
    )) as Interrupted;
    const pending = first.__interrupt__ ?? [];
    expect(pending).toHaveLength(2);
    const idOf = (username: string) => pending.find((p) => p.value.summary.includes(username))!.id;
    let results: any[] = [];
    server.script((request) => {
      results = toolResults(request);
      return { content: 'Done.' };
    });
    const resume = {
      [idOf(a.args.username)]: { type: 'approve' },
      [idOf(b.args.username)]: { type: 'reject', message: 'Not this one.' },
    };
    await buildAgent('interrupt', checkpointer).invoke(new Command({ resume }), config);
    expect(results).toHaveLength(2);
    expect(results.find((r) => r.username === a.args.username)).toBeTruthy();
    expect(results.find((r) => r.error?.code === 'rejected_by_user')?.error.message).toContain('Not this one.');
    expect((await findUser(a.args.username))?.roles).toEqual(['administrator']);
    expect(await findUser(b.args.username)).toBeUndefined();
  });

  it('a subscriber is created without an interrupt', async () => {
    const { username, email } = newIdentity('sub');
    server.script({ toolCalls: [{ name: 'create-user', args: { username, email, password: newPassword(), role: 'subscriber' } }] }, {
      content: 'Done.',
    });
    const out = (await buildAgent('interrupt', new MemorySaver()).invoke(
      { messages: [new HumanMessage('A subscriber.')] },
      { configurable: { thread_id: randomUUID() } },
    )) as Interrupted;
    expect(out.__interrupt__ ?? []).toEqual([]);
    expect((await findUser(username))?.roles).toEqual(['subscriber']);
  });
});

describe('the other approvals settings', () => {
  it('unset (the README example as it stands): the administrator call is refused naming `approvals`, nothing written', async () => {
    const call = adminCall();
    let result: any;
    server.script({ toolCalls: [call] }, (request) => {
      result = toolResults(request).at(-1);
      return { content: 'Refused.' };
    });
    await buildAgent(undefined).invoke({ messages: [new HumanMessage('Make an admin.')] });
    expect(result.error.code).toBe('approval_unavailable');
    expect(result.error.message).toContain('`approvals`');
    expect(await findUser(call.args.username)).toBeUndefined();
  });

  it("'interrupt' without a checkpointer cannot pause: refused, saying so, nothing written", async () => {
    const call = adminCall();
    let result: any;
    server.script({ toolCalls: [call] }, (request) => {
      result = toolResults(request).at(-1);
      return { content: 'Refused.' };
    });
    await buildAgent('interrupt').invoke({ messages: [new HumanMessage('Make an admin.')] });
    expect(result.error.code).toBe('approval_unavailable');
    expect(result.error.message).toMatch(/checkpointer/);
    expect(await findUser(call.args.username)).toBeUndefined();
  });

  it('a resume value that is not a decision is a rejection', async () => {
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: randomUUID() } };
    const call = adminCall();
    server.script({ toolCalls: [call] });
    await buildAgent('interrupt', checkpointer).invoke({ messages: [new HumanMessage('Admin.')] }, config);
    let result: any;
    server.script((request) => {
      result = toolResults(request).at(-1);
      return { content: 'ok' };
    });
    await buildAgent('interrupt', checkpointer).invoke(new Command({ resume: 'yes please' }), config);
    expect(result.error.code).toBe('rejected_by_user');
    expect(await findUser(call.args.username)).toBeUndefined();
  });

  it('an Approver function decides in-process and sees the summary; none runs every call', async () => {
    const asked: ApprovalRequest[] = [];
    const [refused, created] = [adminCall(), adminCall()];
    server.script({ toolCalls: [refused] }, { content: 'ok' });
    await buildAgent(async (request) => {
      asked.push(request);
      return { approved: false, reason: 'Policy says no.' };
    }).invoke({ messages: [new HumanMessage('Admin.')] });
    expect(asked.map((r) => r.summary)).toEqual([expect.stringMatching(/role administrator \(manage_options/)]);
    expect(await findUser(refused.args.username)).toBeUndefined();

    server.script({ toolCalls: [created] }, { content: 'ok' });
    await buildAgent('none').invoke({ messages: [new HumanMessage('Admin.')] });
    expect((await findUser(created.args.username))?.roles).toEqual(['administrator']);
  });

  it("the library's invoke() with an approver asks the same question; without one it runs as given (the operator's call)", async () => {
    const asked: ApprovalRequest[] = [];
    const [refused, approved, plain] = [adminCall(), adminCall(), adminCall()];
    const envelope = (call: ReturnType<typeof adminCall>) => ({ tool: call.name, params: call.args });
    const no = await invoke(envelope(refused), testContext(), {}, {
      approver: async (request) => {
        asked.push(request);
        return { approved: false, reason: 'Policy says no.' };
      },
    });
    expect(no).toMatchObject({ ok: false, error: { code: 'rejected_by_user' } });
    expect(asked.map((r) => r.summary)).toEqual([expect.stringMatching(/role administrator \(manage_options/)]);
    expect(asked[0]?.args.password).toBe('[REDACTED]');
    expect(await findUser(refused.args.username)).toBeUndefined();
    const yes = await invoke(envelope(approved), testContext(), {}, { approver: async () => ({ approved: true }) });
    expect(yes.ok).toBe(true);
    expect((await findUser(approved.args.username))?.roles).toEqual(['administrator']);
    expect((await invoke(envelope(plain), testContext())).ok).toBe(true);
    expect((await findUser(plain.args.username))?.roles).toEqual(['administrator']);
  });
});
