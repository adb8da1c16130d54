import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastToolResult, scriptedSession, unansweredToolCalls } from '../helpers/agent.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { unique, wp } from '../helpers/site.js';

let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

async function categoryExists(id: number): Promise<boolean> {
  return wp()
    .get(`/wp/v2/categories/${id}`)
    .then(
      () => true,
      () => false,
    );
}

describe.each([true, false])('agent conversation (streaming=%s)', (streaming) => {
  it('creates a category, lists it, deletes it after approval; the site follows each step', async () => {
    const name = unique('Agent cat');
    const { session, approvals } = scriptedSession(server, { streaming });
    let createdId = 0;
    server.script({ toolCalls: [{ name: 'create-category', args: { name } }] }, (request) => {
      createdId = lastToolResult(request).id;
      return { content: `Created "${name}" with id ${createdId}.` };
    });
    const texts: string[] = [];
    const first = await session.turn(`Create a category called ${name}`, {
      onEvent: (e) => e.type === 'text' && texts.push(e.delta),
    });
    expect(first.stopped).toBeUndefined();
    expect(first.answer).toBe(`Created "${name}" with id ${createdId}.`);
    if (streaming) expect(texts.length).toBeGreaterThan(1);
    expect(await wp().get(`/wp/v2/categories/${createdId}`)).toMatchObject({ name });
    expect(approvals).toHaveLength(0);

    server.script({ toolCalls: [{ name: 'get-cms-categories', args: { search: name } }] }, (request) => {
      const listed = lastToolResult(request).items.find((c: { id: number }) => c.id === createdId);
      return { content: listed ? `Yes, ${listed.name} is there.` : 'Not found.' };
    });
    const second = await session.turn('Is it in the list?');
    expect(second.answer).toBe(`Yes, ${name} is there.`);

    server.script({ toolCalls: [{ name: 'delete-category', args: { id: createdId } }] }, { content: 'Deleted.' });
    const third = await session.turn('Delete it.');
    expect(third.answer).toBe('Deleted.');
    expect(approvals).toEqual([
      // The request names the call it is for (#48: a decision is matched to its own call).
      { tool: 'delete-category', args: { id: createdId }, summary: `delete the category "${name}" (id ${createdId})`, tool_call_id: expect.any(String) },
    ]);
    expect(await categoryExists(createdId)).toBe(false);
    // History carried across turns: the last request held the first turn's messages.
    const lastRequest = server.requests.at(-1)!;
    expect(JSON.stringify(lastRequest.messages)).toContain(`Create a category called ${name}`);
    expect(unansweredToolCalls(lastRequest)).toEqual([]);
  });
});

describe('approvals', () => {
  it('two parallel deletes, one approved and one rejected: exactly the approved one happens', async () => {
    const keep = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Keep me') });
    const drop = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Drop me') });
    const { session, approvals } = scriptedSession(server, {
      approver: async ({ args }) =>
        args.id === drop.id ? { approved: true } : { approved: false, reason: 'The person said no.' },
    });
    server.script(
      {
        toolCalls: [
          { name: 'delete-category', args: { id: drop.id } },
          { name: 'delete-category', args: { id: keep.id } },
        ],
      },
      { content: 'Deleted one; the other was not approved.' },
    );
    const result = await session.turn('Delete both test categories.');
    expect(result.stopped).toBeUndefined();
    expect(approvals.map((a) => a.args.id).sort()).toEqual([drop.id, keep.id].sort());
    const followUp = server.requests.at(-1)!;
    expect(unansweredToolCalls(followUp)).toEqual([]);
    const toolResults = followUp.messages
      .filter((m) => m.role === 'tool')
      .slice(-2)
      .map((m) => JSON.parse(String(m.content)));
    expect(toolResults.some((r) => r.error?.code === 'rejected_by_user')).toBe(true);
    expect(await categoryExists(drop.id)).toBe(false);
    expect(await categoryExists(keep.id)).toBe(true);
    // The session stays usable: the next request is valid too.
    server.script({ content: 'Anything else?' });
    expect((await session.turn('ok')).answer).toBe('Anything else?');
    expect(unansweredToolCalls(server.requests.at(-1)!)).toEqual([]);
  });
});

describe('errors reach the model briefly and the session goes on', () => {
  it('invalid arguments give a short message without a stack trace', async () => {
    const { session } = scriptedSession(server);
    server.script({ toolCalls: [{ name: 'create-category', args: { name: 42 } as never }] }, (request) => ({
      content: JSON.stringify(lastToolResult(request)),
    }));
    const result = await session.turn('make a category');
    const error = JSON.parse(result.answer).error;
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('name');
    expect(result.answer).not.toMatch(/\bat .*\(|node_modules|\.ts:\d+|\.js:\d+/);
  });

  it('a tool-level error is traced as a failed call', async () => {
    const name = unique('Dup for trace');
    await wp().post('/wp/v2/categories', { name });
    const { session } = scriptedSession(server);
    server.script({ toolCalls: [{ name: 'create-category', args: { name } }] }, { content: 'It exists already.' });
    const result = await session.turn('create it');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ name: 'create-category', ok: false });
    expect(JSON.parse(result.toolCalls[0]!.result!).error.code).toBe('term_exists');
  });

  it('an unknown tool name is answered, not crashed on', async () => {
    const { session } = scriptedSession(server);
    server.script({ toolCalls: [{ name: 'drop-database', args: {} }] }, (request) => ({
      content: lastToolResult(request).error.code,
    }));
    expect((await session.turn('x')).answer).toBe('unknown_tool');
  });

  it('a model endpoint error is reported and the next turn works', async () => {
    const { session } = scriptedSession(server);
    server.script({ status: 500, content: 'upstream exploded' });
    const failed = await session.turn('hello');
    expect(failed.stopped?.reason).toBe('model_error');
    expect(failed.stopped?.message).toContain('500');
    server.script({ content: 'Hi again.' });
    expect((await session.turn('hello?')).answer).toBe('Hi again.');
  });

  it('stops at the step limit with a clear message and a valid history', async () => {
    const { session } = scriptedSession(server, { maxSteps: 2 });
    const loop = { toolCalls: [{ name: 'get-cms-categories', args: {} }] };
    server.script(loop, loop, loop, loop);
    const before = server.requests.length;
    const result = await session.turn('loop forever');
    expect(server.requests.length - before).toBe(2); // --max-steps counts model calls
    expect(result.stopped?.reason).toBe('step_limit');
    expect(result.stopped?.message).toContain('step limit');
    // The second call was cut off by the limit: in the trace, marked as not run.
    expect(result.toolCalls.map((c) => [c.ok, c.executed])).toEqual([
      [true, undefined],
      [false, false],
    ]);
    server.clear();
    server.script({ content: 'ok' });
    await session.turn('next');
    expect(unansweredToolCalls(server.requests.at(-1)!)).toEqual([]);
  });
});
