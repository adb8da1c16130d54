import { describe, expect, it } from 'vitest';
import { makeCategory, makePosts, readTerm, STATUSES } from '../wordpress/taxonomy/fixtures.js';
import { assignReport, checkAssign, checkMerge, makeMergeFixture, pickFault, snapshotMerge, WRITE_FAULTS } from './fault-checks.js';
import { BATCH, BULK, companion, proxy, run, useFaultProxy, randomReadFaults } from './fault-setup.js';

useFaultProxy();

describe('the companion plugin’s bulk route under faults', () => {
  it('assign: a bulk request applied but its answer lost is read back and reported done; a rerun finds it done', async () => {
    const posts = await makePosts(Array.from({ length: 60 }, (_, i) => ({ status: STATUSES[i % STATUSES.length] })));
    const category = await makeCategory('Bulk route fault');
    const context = companion();
    proxy.clear().inject({ method: 'POST', path: BULK, nth: 1, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [category.id] });
    proxy.clear();
    await checkAssign(outcome, posts, category.id);
    expect(assignReport(outcome).updated.sort()).toEqual([...posts].sort());
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
    // Every post failed (the one request): an error, not an ok answer listing 70 failures.
    expect(outcome.ok || outcome.error.code).toBe('all_posts_failed');
    await checkMerge(outcome, m, at);
    for (const id of m.sources) expect(await readTerm('categories', id)).toBeDefined();
  });

  it.each([7, 8])('random faults on reads, bulk requests and batches (seed %i): no post lost', async (seed) => {
    const m = await makeMergeFixture();
    const at = await snapshotMerge(m);
    randomReadFaults(seed);
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
