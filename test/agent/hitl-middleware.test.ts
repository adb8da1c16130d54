import { randomUUID } from 'node:crypto';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { AIMessage, createAgent, HumanMessage, humanInTheLoopMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { approvalInterruptOn, TaxonomyToolkit, UserToolkit } from '../../src/index.js';
import { ScriptedChatModel } from '../../src/testing/index.js';
import { testContext, unique, wp } from '../helpers/site.js';
import { makeUser } from '../wordpress/users/helpers.js';

/**
 * #52.14: LangChain v1's own approval middleware, `humanInTheLoopMiddleware({ interruptOn:
 * approvalInterruptOn(tools) })`, with createAgent, a checkpointer and a thread id; LangChain's
 * fake model and our ScriptedChatModel. Every outcome is read back from WordPress.
 */
type Hitl = { actionRequests: Array<{ name: string; args: Record<string, unknown>; description: string }>; reviewConfigs: Array<{ allowedDecisions: string[] }> };
type Interrupted = { __interrupt__?: Array<{ id: string; value: Hitl }>; messages: Array<{ content: unknown; tool_call_id?: string }> };

function tools() {
  const seen = new Set<string>();
  return [...new UserToolkit({ context: testContext() }).getTools(), ...new TaxonomyToolkit({ context: testContext() }).getTools()].filter(
    (t) => !seen.has(t.name) && seen.add(t.name),
  );
}

function agent(model: Parameters<typeof createAgent>[0]['model']) {
  const all = tools();
  return createAgent({ model, tools: all, checkpointer: new MemorySaver(), middleware: [humanInTheLoopMiddleware({ interruptOn: approvalInterruptOn(all) })] });
}

const rolesOf = async (id: number) => (await wp().get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles;
const ask = { messages: [new HumanMessage('Do it.')] };

describe('humanInTheLoopMiddleware with approvalInterruptOn', () => {
  it('approve: the question is the review read from the site; nothing is written until approved', async () => {
    const user = await makeUser();
    const model = fakeModel().respondWithTools([{ name: 'set-user-role', args: { id: user.id, role: 'administrator' }, id: 'call-approve' }]).respond(new AIMessage('Done.'));
    const run = agent(model);
    const config = { configurable: { thread_id: randomUUID() } };
    const first = (await run.invoke(ask, config)) as unknown as Interrupted;
    const request = first.__interrupt__?.[0]?.value;
    expect(request?.actionRequests[0]).toMatchObject({ name: 'set-user-role', args: { id: user.id, role: 'administrator' } });
    expect(request?.actionRequests[0]?.description).toContain(user.username);
    expect(request?.actionRequests[0]?.description).toContain('administrator');
    expect(request?.reviewConfigs[0]?.allowedDecisions).toEqual(['approve', 'edit', 'reject']);
    expect(await rolesOf(user.id)).toEqual(['subscriber']);
    const done = (await run.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config)) as unknown as Interrupted;
    expect(done.__interrupt__).toBeUndefined();
    expect(await rolesOf(user.id)).toEqual(['administrator']);
  });

  it('edit: the changed call is asked again (its own question, read from the site); only the approved edit runs', async () => {
    const [asked, edited] = [await makeUser(), await makeUser()];
    const model = fakeModel().respondWithTools([{ name: 'set-user-role', args: { id: asked.id, role: 'administrator' }, id: 'call-edit' }]).respond(new AIMessage('Done.'));
    const run = agent(model);
    const config = { configurable: { thread_id: randomUUID() } };
    await run.invoke(ask, config);
    const editedAction = { name: 'set-user-role', args: { id: edited.id, role: 'administrator' } };
    const again = (await run.invoke(new Command({ resume: { decisions: [{ type: 'edit', editedAction }] } }), config)) as unknown as Interrupted;
    const second = again.__interrupt__?.[0]?.value;
    expect(second?.actionRequests[0]).toMatchObject({ name: 'set-user-role', args: { id: edited.id, role: 'administrator' } });
    expect(second?.actionRequests[0]?.description).toContain(edited.username);
    expect(second?.reviewConfigs[0]?.allowedDecisions).toEqual(['approve', 'reject']);
    // Not yet approved: nothing written, to either account.
    expect([await rolesOf(asked.id), await rolesOf(edited.id)]).toEqual([['subscriber'], ['subscriber']]);
    await run.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
    expect([await rolesOf(asked.id), await rolesOf(edited.id)]).toEqual([['subscriber'], ['administrator']]);
  });

  it('reject: nothing is written, the model reads the person’s words; a call that would not ask is not held up', async () => {
    const user = await makeUser();
    const tag = unique('Hitl tag');
    const model = fakeModel()
      .respondWithTools([
        { name: 'set-user-role', args: { id: user.id, role: 'administrator' }, id: 'call-reject' },
        { name: 'create-tag', args: { name: tag }, id: 'call-tag' },
      ])
      .respond(new AIMessage('Understood.'));
    const run = agent(model);
    const config = { configurable: { thread_id: randomUUID() } };
    const first = (await run.invoke(ask, config)) as unknown as Interrupted;
    // Only the call whose review asks a person is in the question.
    expect(first.__interrupt__?.[0]?.value.actionRequests.map((a) => a.name)).toEqual(['set-user-role']);
    const done = (await run.invoke(new Command({ resume: { decisions: [{ type: 'reject', message: 'Not this account.' }] } }), config)) as unknown as Interrupted;
    expect(JSON.stringify(done.messages.map((m) => m.content))).toContain('Not this account.');
    expect(await rolesOf(user.id)).toEqual(['subscriber']);
  });

  it('with cms-admin-toolkit/testing: a create-tag that asks no one is not held up and runs', async () => {
    const tag = unique('Hitl scripted');
    const model = new ScriptedChatModel({
      responses: [new AIMessage({ content: '', tool_calls: [{ name: 'create-tag', args: { name: tag }, id: 'call-s1', type: 'tool_call' }] }), 'Made it.'],
    });
    const out = (await agent(model).invoke(ask, { configurable: { thread_id: randomUUID() } })) as unknown as Interrupted;
    expect(out.__interrupt__).toBeUndefined();
    expect((await wp().get<Array<{ name: string }>>('/wp/v2/tags', { search: tag })).map((t) => t.name)).toEqual([tag]);
  });

  it('with cms-admin-toolkit/testing: approve after an edit to another account, read back', async () => {
    const [asked, edited] = [await makeUser(), await makeUser()];
    const model = new ScriptedChatModel({
      responses: [new AIMessage({ content: '', tool_calls: [{ name: 'set-user-role', args: { id: asked.id, role: 'administrator' }, id: 'call-s2', type: 'tool_call' }] }), 'Done.'],
    });
    const run = agent(model);
    const config = { configurable: { thread_id: randomUUID() } };
    await run.invoke(ask, config);
    const editedAction = { name: 'set-user-role', args: { id: edited.id, role: 'administrator' } };
    const again = (await run.invoke(new Command({ resume: { decisions: [{ type: 'edit', editedAction }] } }), config)) as unknown as Interrupted;
    expect(again.__interrupt__?.[0]?.value.actionRequests[0]?.args).toMatchObject({ id: edited.id });
    await run.invoke(new Command({ resume: { decisions: [{ type: 'reject', message: 'No.' }] } }), config);
    expect([await rolesOf(asked.id), await rolesOf(edited.id)]).toEqual([['subscriber'], ['subscriber']]);
  });
});
