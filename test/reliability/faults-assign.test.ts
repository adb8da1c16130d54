import { beforeAll, describe, expect, it } from 'vitest';
import { wp } from '../helpers/site.js';
import { makeCategory, makePosts, readPosts, STATUSES } from '../wordpress/taxonomy/fixtures.js';
import { assignReport, checkAssign, pickFault, WRITE_FAULTS } from './fault-checks.js';
import { BATCH, POSTS, proxied, proxy, run, useFaultProxy, randomReadFaults } from './fault-setup.js';

useFaultProxy();

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
    // Two of the five chunks (25, 25, 25, 25, 8; sent 4 at a time, in any order) and the unknown id.
    expect(report.failed.length).toBeGreaterThanOrEqual(25 + 8 + 1);
    expect(report.failed.find((f) => f.post_id === 987654321)?.error.code).toBe('post_not_found');
    // The chunk whose answer was lost was applied, read back and reported done: no failed post has it.
    const site = await readPosts(posts);
    const having = posts.filter((id) => site.get(id)?.categories.includes(category.id));
    expect(report.failed.some((f) => having.includes(f.post_id))).toBe(false);
    expect(report.updated.length + report.unchanged.length).toBe(having.length);

    // Without faults the same call completes; the posts that have the category show as unchanged.
    const rerun = await run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [category.id] });
    await checkAssign(rerun, posts, category.id);
    expect(assignReport(rerun).failed).toEqual([]);
    expect(assignReport(rerun).unchanged.sort()).toEqual(having.sort());
  });

  it.each([1, 2, 3])('random faults on reads and batches (seed %i): every post accounted for', async (seed) => {
    const category = await makeCategory(`Bulk random ${seed}`);
    const before = new Map([...(await readPosts(posts)).values()].map((p) => [p.id, p.categories]));
    randomReadFaults(seed, ['before', 'after']);
    proxy.inject({ method: 'POST', path: BATCH, probability: 0.5, fault: pickFault(WRITE_FAULTS) });
    const outcome = await run(proxied(), 'assign-categories-to-posts', {
      post_ids: posts,
      category_ids: [category.id],
    });
    proxy.clear();
    await checkAssign(outcome, posts, category.id, before);
  });
});
