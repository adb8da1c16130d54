import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expandIds } from '../helpers/listing.js';
import { approveAll } from '../../src/agent/approvals.js';
import { WordPressClient } from '../../src/client/index.js';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/call/envelope.js';
import { lastToolResult, scriptedSession, unansweredToolCalls } from '../helpers/agent.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { recordOutput } from '../helpers/output-log.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { LOCK_TITLE } from '../../src/tools/taxonomy/site-lock.js';
import { testSite, unique, withoutCompanion, wp } from '../helpers/site.js';
import { makeCategory, makePosts } from '../wordpress/taxonomy/fixtures.js';

/**
 * Cancelling (Ctrl-C in the chat, an AbortSignal for the runner or a tool) stops the running
 * tool's requests; a bulk write stops between chunks and says what it did; the history keeps
 * every call that ran, with its result. The site sits behind a proxy that holds requests.
 */
let server: ScriptedOpenAI;
let proxy: FaultProxy;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
  proxy = await new FaultProxy(testSite().url).start();
});
afterAll(async () => {
  await server.stop();
  await proxy.stop();
});
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('cancellation', () => {
  it('Ctrl-C during a hanging write: the request stops, the turn ends, the history keeps the call and its result', async () => {
    proxy.clear().inject({ method: 'POST', path: /categories/, fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const context = createContext({ ...testSite(), url: proxy.url });
    const { session } = scriptedSession(server, { approver: approveAll, context });
    const name = unique('Never made');
    server.script({ toolCalls: [{ name: 'create-category', args: { name } }] }, { content: 'unused' });
    const controller = new AbortController();
    const since = proxy.events.length;
    const turn = session.turn('Make a category.', { signal: controller.signal });
    await until(() => proxy.count('POST', /categories/, since) === 1);
    controller.abort();
    const result = await turn;

    expect(result.stopped?.reason).toBe('cancelled');
    expect(result.toolCalls).toHaveLength(1);
    expect(JSON.parse(result.toolCalls[0]!.result!).error.code).toBe('cancelled');
    expect(proxy.count('POST', /categories/, since)).toBe(1);
    expect(await wp().get<unknown[]>('/wp/v2/categories', { search: name })).toEqual([]);

    // The next request tells the model what happened to that call.
    proxy.clear();
    server.clear();
    server.script((request) => ({ content: JSON.stringify(lastToolResult(request)) }));
    const next = await session.turn('What happened?');
    expect(JSON.parse(next.answer).error.code).toBe('cancelled');
    expect(unansweredToolCalls(server.requests.at(-1)!)).toEqual([]);
  });

  it('a bulk assignment cancelled mid-way stops between chunks and reports what was done', async () => {
    proxy.clear().inject({ method: 'POST', path: /batch\/v1/, fault: { kind: 'delay', ms: 300 } });
    const category = await makeCategory('Cancelled bulk');
    const posts = await makePosts(Array.from({ length: 60 }, () => ({ status: 'publish' as const })));
    const site = { ...testSite(), url: proxy.url };
    // One chunk at a time (25 posts per /batch/v1 request), so "between chunks" is well defined.
    const context = withoutCompanion({ ...createContext(site), client: new WordPressClient({ ...site, concurrency: 1 }) });
    const controller = new AbortController();
    const since = proxy.events.length;
    const call = invoke(
      { tool: 'assign-categories-to-posts', params: { post_ids: posts, category_ids: [category.id] } },
      { ...context, signal: controller.signal },
    );
    await until(() => proxy.count('POST', /batch\/v1/, since) === 2);
    controller.abort();
    const outcome = await call;
    recordOutput(JSON.stringify(outcome));

    expect(proxy.count('POST', /batch\/v1/, since)).toBe(2);
    const withCategory = (await wp().get<Array<{ id: number }>>('/wp/v2/posts', { categories: category.id, per_page: 100, _fields: 'id', status: 'publish' })).map((p) => p.id);
    expect(withCategory).toHaveLength(25);
    const text = JSON.stringify(outcome);
    expect(text).toContain('cancelled');
    if (!outcome.ok) throw new Error(text);
    const report = outcome.result as Record<string, any>;
    expect(report.updated).toBe(25);
    expect(expandIds(report.updated_ids)).toEqual([...withCategory].sort((a, b) => a - b));
    // The cancelled call gave the site lock back: the next writer is not kept waiting.
    const locks = await wp().get<unknown[]>('/wp/v2/blocks', { search: LOCK_TITLE, status: 'draft', _fields: 'id' });
    expect(locks).toEqual([]);
  });
});
