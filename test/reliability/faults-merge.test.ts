import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/call/index.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';
import { checkMerge, type MergeFixture, makeMergeFixture, pickFault, snapshotMerge, WRITE_FAULTS } from './fault-checks.js';
import { BATCH, POSTS, proxied, proxy, run, useFaultProxy, randomReadFaults } from './fault-setup.js';

useFaultProxy();

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

  it('a chunk applied but its answer lost: read back, reported moved, sources deleted', async () => {
    const m = await makeMergeFixture();
    proxy
      .clear()
      .inject({ method: 'POST', path: BATCH, body: /"categories"/, nth: 1, fault: { kind: 'drop', when: 'after' } });
    const { report } = await merge(proxied(), m);
    expect(report?.posts_failed).toEqual([]);
    expect(report?.sources_deleted.sort()).toEqual([...m.sources].sort());
  });

  it('the deletion batch applied but its answer lost: read back, reported deleted', async () => {
    const m = await makeMergeFixture();
    proxy
      .clear()
      .inject({ method: 'POST', path: BATCH, body: /"method":"DELETE"/, fault: { kind: 'drop', when: 'after' } });
    const { report } = await merge(proxied(), m);
    expect(report?.posts_moved).toBe(m.posts.length);
    expect(report?.sources_deleted.sort()).toEqual([...m.sources].sort());
    expect(report?.sources_delete_failed).toBeUndefined();
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
    randomReadFaults(seed);
    proxy.inject({ method: 'POST', path: BATCH, probability: 0.4, fault: pickFault(WRITE_FAULTS) });
    await merge(proxied(), m);
  });
});
