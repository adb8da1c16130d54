import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from '../../src/client/retry.js';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/envelope.js';
import type { ToolContext } from '../../src/tools/index.js';
import { type Fault, FaultProxy } from '../helpers/fault-proxy.js';
import { testSite, unique, withoutCompanion, wp } from '../helpers/site.js';
import { makeCategory, makePosts, readPosts, readTerm, STATUSES } from '../wordpress/taxonomy/fixtures.js';
import {
  assignReport,
  checkAssign,
  checkMerge,
  expectClearError,
  type MergeFixture,
  makeMergeFixture,
  pickFault,
  snapshotMerge,
  tally,
  WRITE_FAULTS,
} from './fault-checks.js';

/**
 * The tools through a proxy that drops, delays and fails requests. Whatever the faults, every
 * post is reported exactly once and no report claims a change the site does not have; writes
 * are never repeated; reads are; nothing waits forever. Checks read the site directly (`wp()`).
 */

let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url, { seed: 20240508 }).start();
});

afterAll(async () => {
  await proxy?.stop();
  const faults = proxy.faults();
  const total = Object.values(faults).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(faults)
    .map(([kind, n]) => `${kind}: ${n}`)
    .join(', ');
  console.log(
    `faults: ${total} injected (${kinds}); posts checked: ${tally.postsChecked}, posts lost: ${tally.postsLost}, duplicate writes: ${tally.duplicateWrites}`,
  );
});

/**
 * A fresh client (own keep-alive sockets, own connect()) whose site URL is the proxy. By
 * default it does not use the companion plugin, so bulk writes go through /batch/v1 (the
 * REST-only path); `companion()` keeps the plugin's bulk route.
 */
function proxied(timeoutMs?: number): ToolContext {
  return withoutCompanion(companion(timeoutMs));
}

function companion(timeoutMs?: number): ToolContext {
  return createContext({ ...testSite(), url: proxy.url }, { timeoutMs });
}

const run = (context: ToolContext, tool: string, params?: Record<string, unknown>) =>
  invoke(params === undefined ? { tool } : { tool, params }, context);

const BATCH = /^\/wp-json\/batch\/v1/;
const BULK = /^\/wp-json\/cms-admin\/v1\/post-terms/;
const POSTS = /^\/wp-json\/wp\/v2\/posts\?/;
const CATEGORIES = /^\/wp-json\/wp\/v2\/categories\?/;

async function categoriesNamed(name: string): Promise<number[]> {
  const found = await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', {
    search: name,
    hide_empty: false,
    _fields: 'id,name',
  });
  return found.filter((c) => c.name === name).map((c) => c.id);
}

describe('reads are retried, writes never', () => {
  const faults: Fault[] = [
    { kind: 'status', status: 503, when: 'before' },
    { kind: 'drop', when: 'before' },
    { kind: 'drop', when: 'after' },
  ];
  it.each(faults.map((f) => [JSON.stringify(f), f] as const))(
    'a GET that fails once (%s) is retried and succeeds',
    async (_, fault) => {
      const context = proxied();
      await context.client.connect();
      const since = proxy.events.length;
      proxy.clear().inject({ method: 'GET', path: CATEGORIES, nth: 1, fault });
      const outcome = await run(context, 'get-cms-categories');
      proxy.clear();
      expect(outcome.ok && (outcome.result as { total: number }).total).toBe(
        await wp().count('/wp/v2/categories', { hide_empty: false }),
      );
      expect(proxy.count('GET', CATEGORIES, since)).toBe(2);
      expect(context.client.stats.retries).toBe(1);
    },
  );

  const writeFaults: Array<[Fault, boolean]> = [
    [{ kind: 'status', status: 503, when: 'after' }, true],
    [{ kind: 'drop', when: 'after' }, true],
    [{ kind: 'status', status: 500, when: 'after' }, true],
    [{ kind: 'status', status: 503, when: 'before' }, false],
    [{ kind: 'drop', when: 'before' }, false],
  ];
  it.each(writeFaults.map(([f, applied]) => [JSON.stringify(f), f, applied] as const))(
    'create-category through %s: one POST, an error, at most one category',
    async (_, fault, applied) => {
      const name = unique('Fault cat');
      const context = proxied();
      const since = proxy.events.length;
      proxy.clear().inject({ method: 'POST', path: /^\/wp-json\/wp\/v2\/categories\?/, fault });
      const outcome = await run(context, 'create-category', { name });
      proxy.clear();
      expectClearError(outcome);
      expect(proxy.count('POST', /\/wp\/v2\/categories/, since)).toBe(1);
      const ids = await categoriesNamed(name);
      if (ids.length > 1) tally.duplicateWrites += ids.length - 1;
      expect(ids).toHaveLength(applied ? 1 : 0);
      // Trying again is safe: WordPress's answer names the category the lost answer created.
      const again = await run(context, 'create-category', { name });
      if (applied)
        expect(again.ok ? again.result : again.error).toMatchObject({
          code: 'term_exists',
          details: { existing_id: ids[0] },
        });
      else expect(again.ok).toBe(true);
      expect(await categoriesNamed(name)).toHaveLength(1);
    },
  );

  it('create-user whose answer is lost: one POST, one user', async () => {
    const username = unique('fault user')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_');
    const context = proxied();
    const since = proxy.events.length;
    proxy
      .clear()
      .inject({ method: 'POST', path: /^\/wp-json\/wp\/v2\/users\?/, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(context, 'create-user', {
      username,
      email: `${username}@example.org`,
      password: `Pw-${randomBytes(12).toString('base64url')}`,
    });
    proxy.clear();
    expectClearError(outcome);
    expect(proxy.count('POST', /\/wp\/v2\/users/, since)).toBe(1);
    const found = await wp().get<Array<{ username: string }>>('/wp/v2/users', {
      search: username,
      context: 'edit',
      _fields: 'id,username',
    });
    const same = found.filter((u) => u.username === username);
    if (same.length > 1) tally.duplicateWrites += same.length - 1;
    expect(same).toHaveLength(1);
  });
});

describe('timeouts are bounded', () => {
  const timeoutMs = 400;
  // Per request timeoutMs, and a timeout is never retried (reads or writes); backoff only
  // applies to fast failures, bounded by baseDelay·2^n plus baseDelay of jitter each.
  const backoffBound = Array.from(
    { length: DEFAULT_RETRY.maxRetries },
    (_, n) => DEFAULT_RETRY.baseDelayMs * (2 ** n + 1),
  ).reduce((a, b) => a + b, 0);
  const slack = 1_500;

  it('a read held forever fails after one timeout: timeouts are not retried', async () => {
    const context = proxied(timeoutMs);
    const since = proxy.events.length;
    proxy.clear().inject({ method: 'GET', fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const started = Date.now();
    const outcome = await run(context, 'get-cms-tags');
    const elapsed = Date.now() - started;
    proxy.clear();
    expect(expectClearError(outcome).message).toContain('timed out');
    expect(proxy.count('GET', undefined, since)).toBe(1);
    expect(elapsed).toBeLessThan(timeoutMs + slack);
  });

  it('a write held forever fails after one timeout and is not repeated', async () => {
    const context = proxied(timeoutMs);
    await context.client.connect();
    const name = unique('Held cat');
    const since = proxy.events.length;
    proxy.clear().inject({ method: 'POST', fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const started = Date.now();
    const outcome = await run(context, 'create-category', { name });
    const elapsed = Date.now() - started;
    proxy.clear();
    expect(expectClearError(outcome).message).toContain('timed out');
    expect(elapsed).toBeLessThan(timeoutMs + slack + backoffBound);
    expect(proxy.count('POST', undefined, since)).toBe(1);
    expect(await categoriesNamed(name)).toEqual([]);
  });

  it('bulk assign with every batch held forever reports every post failed', async () => {
    const category = await makeCategory('Held bulk');
    const posts = await makePosts(Array.from({ length: 60 }, () => ({})));
    const context = proxied(timeoutMs);
    proxy.clear().inject({ method: 'POST', path: BATCH, fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
    const started = Date.now();
    const outcome = await run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [category.id] });
    const elapsed = Date.now() - started;
    proxy.clear();
    // 3 chunks, 4 at a time: one round of timeouts (plus the reads before it).
    expect(elapsed).toBeLessThan(2 * timeoutMs + slack + backoffBound);
    const report = assignReport(outcome);
    expect(report.failed.map((f) => f.post_id).sort()).toEqual([...posts].sort());
    await checkAssign(outcome, posts, category.id);
  });
});

describe('bulk assign under faults', () => {
  let posts: number[];
  beforeAll(async () => {
    // 120 posts of every status: 5 batch chunks per assign.
    posts = await makePosts(Array.from({ length: 120 }, (_, i) => ({ status: STATUSES[i % STATUSES.length] })));
  });

  it('chosen chunks dropped before/after forwarding and failed: every post accounted for; a rerun finishes', async () => {
    const category = await makeCategory('Bulk fault');
    const preassigned = posts.filter((_, i) => i % 10 === 0);
    await wp().batch(preassigned.map((id) => ({ path: `/wp/v2/posts/${id}`, body: { categories: [category.id] } })));
    const context = proxied();
    proxy
      .clear()
      .inject({ method: 'GET', path: POSTS, nth: 1, fault: { kind: 'status', status: 503, when: 'before' } })
      .inject({ method: 'POST', path: BATCH, nth: 1, fault: { kind: 'drop', when: 'after' } })
      .inject({ method: 'POST', path: BATCH, nth: 2, fault: { kind: 'status', status: 500, when: 'before' } })
      .inject({ method: 'POST', path: BATCH, nth: 3, fault: { kind: 'drop', when: 'before' } });
    const ids = [...posts, 987654321];
    const outcome = await run(context, 'assign-categories-to-posts', { post_ids: ids, category_ids: [category.id] });
    proxy.clear();
    await checkAssign(outcome, ids, category.id);
    const report = assignReport(outcome);
    expect(report.unchanged.sort()).toEqual([...preassigned].sort());
    // Three of the five chunks (25, 25, 25, 25, 8; sent 4 at a time, in any order) and the unknown id.
    expect(report.failed.length).toBeGreaterThanOrEqual(25 + 25 + 8 + 1);
    expect(report.failed.find((f) => f.post_id === 987654321)?.error.code).toBe('post_not_found');
    // The chunk whose answer was lost was applied: "failed" means "not confirmed", never "lost".
    const site = await readPosts(posts);
    const having = posts.filter((id) => site.get(id)?.categories.includes(category.id));
    expect(report.failed.some((f) => having.includes(f.post_id))).toBe(true);

    // Without faults the same call completes; the posts that have the category show as unchanged.
    const rerun = await run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [category.id] });
    await checkAssign(rerun, posts, category.id);
    expect(assignReport(rerun).failed).toEqual([]);
    expect(assignReport(rerun).unchanged.sort()).toEqual(having.sort());
  });

  it.each([1, 2, 3])('random faults on reads and batches (seed %i): every post accounted for', async (seed) => {
    const category = await makeCategory(`Bulk random ${seed}`);
    const before = new Map([...(await readPosts(posts)).values()].map((p) => [p.id, p.categories]));
    proxy.clear().reseed(seed);
    proxy.inject({
      method: 'GET',
      probability: 0.2,
      fault: pickFault([
        { kind: 'status', status: 503, when: 'before' },
        { kind: 'drop', when: 'before' },
        { kind: 'drop', when: 'after' },
      ]),
    });
    proxy.inject({ method: 'POST', path: BATCH, probability: 0.5, fault: pickFault(WRITE_FAULTS) });
    const outcome = await run(proxied(), 'assign-categories-to-posts', {
      post_ids: posts,
      category_ids: [category.id],
    });
    proxy.clear();
    await checkAssign(outcome, posts, category.id, before);
  });
});

describe('merge-categories under faults', () => {
  /** Runs the merge (delete_sources) and checks the outcome against the site. */
  async function merge(context: ToolContext, m: MergeFixture) {
    const at = await snapshotMerge(m);
    const outcome = await run(context, 'merge-categories', {
      source_ids: m.sources,
      target_id: m.target,
      delete_sources: true,
    });
    proxy.clear();
    return { outcome, report: await checkMerge(outcome, m, at) };
  }

  it('a failed chunk keeps every source; a rerun finishes and deletes them', async () => {
    const m = await makeMergeFixture();
    const context = proxied();
    proxy
      .clear()
      // Post writes only (the child's re-parenting goes in a batch of its own, in parallel).
      .inject({
        method: 'POST',
        path: BATCH,
        body: /"categories"/,
        nth: 2,
        fault: { kind: 'status', status: 500, when: 'before' },
      });
    const { report } = await merge(context, m);
    // Chunks go out 4 at a time, so the failed one may be the last (20 posts and the child).
    expect(report?.posts_failed.length).toBeGreaterThanOrEqual(20);
    expect(report?.sources_deleted).toEqual([]);
    expect(report?.sources_kept_reason).toMatch(/not deleted/);
    for (const id of m.sources) expect(await readTerm('categories', id)).toBeDefined();

    const rerun = await merge(context, m);
    expect(rerun.report?.posts_failed).toEqual([]);
    expect(rerun.report?.sources_deleted.sort()).toEqual([...m.sources].sort());
  });

  it('a chunk applied but its answer lost: sources kept, nothing claimed falsely', async () => {
    const m = await makeMergeFixture();
    proxy
      .clear()
      .inject({ method: 'POST', path: BATCH, body: /"categories"/, nth: 1, fault: { kind: 'drop', when: 'after' } });
    const { report } = await merge(proxied(), m);
    expect(report?.posts_failed.length).toBeGreaterThanOrEqual(20);
    expect(report?.sources_deleted).toEqual([]);
  });

  it('the deletion batch applied but its answer lost: no post lost, deletion reported failed', async () => {
    const m = await makeMergeFixture();
    proxy
      .clear()
      .inject({ method: 'POST', path: BATCH, body: /"method":"DELETE"/, fault: { kind: 'drop', when: 'after' } });
    const { report } = await merge(proxied(), m);
    expect(report?.posts_moved).toBe(m.posts.length);
    expect(report?.sources_deleted).toEqual([]);
    expect(report?.sources_delete_failed?.map((f) => f.id).sort()).toEqual([...m.sources].sort());
  });

  it('a read that keeps failing stops the merge before any write', async () => {
    const m = await makeMergeFixture();
    const since = proxy.events.length;
    proxy.clear().inject({ method: 'GET', path: POSTS, fault: { kind: 'drop', when: 'before' } });
    const { outcome } = await merge(proxied(), m);
    expect(outcome.ok).toBe(false);
    expect(proxy.count('POST', BATCH, since)).toBe(0);
  });

  it.each([4, 5, 6])('random faults (seed %i): no post lost, no source deleted while in use', async (seed) => {
    const m = await makeMergeFixture();
    proxy.clear().reseed(seed);
    proxy.inject({
      method: 'GET',
      probability: 0.2,
      fault: pickFault([
        { kind: 'status', status: 503, when: 'before' },
        { kind: 'drop', when: 'after' },
      ]),
    });
    proxy.inject({ method: 'POST', path: BATCH, probability: 0.4, fault: pickFault(WRITE_FAULTS) });
    await merge(proxied(), m);
  });
});

describe('the companion plugin’s bulk route under faults', () => {
  it('assign: a bulk request applied but its answer lost is reported failed, never lost; a rerun finishes', async () => {
    const posts = await makePosts(Array.from({ length: 60 }, (_, i) => ({ status: STATUSES[i % STATUSES.length] })));
    const category = await makeCategory('Bulk route fault');
    const context = companion();
    proxy.clear().inject({ method: 'POST', path: BULK, nth: 1, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [category.id] });
    proxy.clear();
    await checkAssign(outcome, posts, category.id);
    expect(
      assignReport(outcome)
        .failed.map((f) => f.post_id)
        .sort(),
    ).toEqual([...posts].sort());
    const rerun = await run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [category.id] });
    await checkAssign(rerun, posts, category.id);
    expect(assignReport(rerun).unchanged.sort()).toEqual([...posts].sort());
  });

  it('merge: a failed bulk request keeps every source', async () => {
    const m = await makeMergeFixture();
    const at = await snapshotMerge(m);
    proxy
      .clear()
      .inject({ method: 'POST', path: BULK, nth: 1, fault: { kind: 'status', status: 500, when: 'before' } });
    const outcome = await run(companion(), 'merge-categories', {
      source_ids: m.sources,
      target_id: m.target,
      delete_sources: true,
    });
    proxy.clear();
    const report = await checkMerge(outcome, m, at);
    expect(report?.sources_deleted).toEqual([]);
    for (const id of m.sources) expect(await readTerm('categories', id)).toBeDefined();
  });

  it.each([7, 8])('random faults on reads, bulk requests and batches (seed %i): no post lost', async (seed) => {
    const m = await makeMergeFixture();
    const at = await snapshotMerge(m);
    proxy.clear().reseed(seed);
    proxy.inject({
      method: 'GET',
      probability: 0.2,
      fault: pickFault([
        { kind: 'status', status: 503, when: 'before' },
        { kind: 'drop', when: 'after' },
      ]),
    });
    proxy.inject({ method: 'POST', path: BULK, probability: 0.5, fault: pickFault(WRITE_FAULTS) });
    proxy.inject({ method: 'POST', path: BATCH, probability: 0.4, fault: pickFault(WRITE_FAULTS) });
    const outcome = await run(companion(), 'merge-categories', {
      source_ids: m.sources,
      target_id: m.target,
      delete_sources: true,
    });
    proxy.clear();
    await checkMerge(outcome, m, at);
  });
});
