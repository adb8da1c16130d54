import { describe, expect, it } from 'vitest';
import { type BulkAnswer, perPost } from '../../helpers/listing.js';
import { call, callOk, callOkIn, restOnlyContext, wordPressAtLeast } from '../../helpers/site.js';
import { countRequests, makeCategory, makePosts, readPosts, STATUSES } from './fixtures.js';

/** The site lock's requests: create, list, delete (before 6.4 a draft block is published to be deleted: 2 more). */
const LOCK = wordPressAtLeast('6.4') ? 3 : 5;

describe('assign-categories-to-posts', () => {
  it('adds categories to posts of every status, keeping the ones they have; reports unchanged', async () => {
    const existing = await makeCategory('Existing');
    const added = await makeCategory('Added');
    const second = await makeCategory('Second');
    const ids = await makePosts(STATUSES.map((status) => ({ status, categories: [existing.id] })));
    const [already] = await makePosts([{ status: 'draft', categories: [added.id, second.id] }]);

    const result = perPost(
      await callOk('assign-categories-to-posts', {
        post_ids: [...ids, already, ids[0]],
        category_ids: [added.id, second.id, added.id],
      }),
    );

    expect(result).toEqual({ updated: ids, unchanged: [already], failed: [] });
    const posts = await readPosts([...ids, already as number]);
    for (const id of ids) expect(posts.get(id)?.categories.sort()).toEqual([existing.id, added.id, second.id].sort());
    expect(posts.get(already as number)?.categories.sort()).toEqual([added.id, second.id].sort());
    expect([...posts.values()].map((p) => p.status).sort()).toEqual([...STATUSES, 'draft'].sort());
  });

  it('an unknown category id stops everything: the error names it and nothing is written', async () => {
    const cat = await makeCategory('Real');
    const ids = await makePosts([{ categories: [cat.id] }, { status: 'draft' }]);
    const before = await readPosts(ids);
    const outcome = await call('assign-categories-to-posts', {
      post_ids: ids,
      category_ids: [cat.id, 999_998, 999_999],
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'category_not_found', details: { missing_ids: [999_998, 999_999] } },
    });
    if (!outcome.ok) expect(outcome.error.message).toContain('999998, 999999');
    expect(await readPosts(ids)).toEqual(before);
  });

  it('unknown post ids are reported as failed; the other posts are updated', async () => {
    const cat = await makeCategory('Partial');
    const ids = await makePosts([{ status: 'pending' }, { status: 'future' }]);
    const result = perPost(
      await callOk('assign-categories-to-posts', { post_ids: [ids[0], 999_999, ids[1]], category_ids: [cat.id] }),
    );
    expect(result.updated).toEqual(ids);
    expect(result.unchanged).toEqual([]);
    expect(result.failed).toEqual([
      { post_id: 999_999, error: { code: 'post_not_found', message: expect.stringContaining('999999') } },
    ]);
    for (const post of (await readPosts(ids)).values()) expect(post.categories).toContain(cat.id);
  });

  it('rejects empty lists in the schema', async () => {
    expect(await call('assign-categories-to-posts', { post_ids: [], category_ids: [1] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(await call('assign-categories-to-posts', { post_ids: [1], category_ids: [] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });

  it('without the companion plugin: the lock, ceil(N/100) reads, ceil(changed/25) batch writes and the read-back', async () => {
    const context = restOnlyContext();
    const cat = await makeCategory('Counted');
    const ids = await makePosts(Array.from({ length: 130 }, (_, i) => ({ status: STATUSES[i % 5] })));
    const { result, requests } = await countRequests(
      () => callOkIn(context, 'assign-categories-to-posts', { post_ids: ids, category_ids: [cat.id] }),
      context,
    );
    expect(perPost(result as BulkAnswer).updated).toHaveLength(130);
    // 1 term check + the site lock (create, list, delete) + 2 reads (100 ids each) + 6 batches
    // (25 posts each) + 2 read-backs of what was written + 1 check that the category still exists
    expect(requests).toBe(1 + LOCK + 2 + 6 + 2 + 1);
    console.info(`assign-categories-to-posts (REST only): ${requests} HTTP requests for 130 posts`);
    const again = await countRequests(
      () => callOkIn(context, 'assign-categories-to-posts', { post_ids: ids, category_ids: [cat.id] }),
      context,
    );
    expect(perPost(again.result as BulkAnswer).unchanged).toHaveLength(130);
    expect(again.requests).toBe(1 + LOCK + 2);
    const posts = await readPosts(ids);
    for (const id of ids) expect(posts.get(id)?.categories).toContain(cat.id);
  });

  it('with the companion plugin: 1 term check + one bulk request per 250 posts + 1 term check after', async () => {
    const cat = await makeCategory('Counted bulk');
    const ids = await makePosts(Array.from({ length: 130 }, (_, i) => ({ status: STATUSES[i % 5] })));
    const { result, requests } = await countRequests(() =>
      callOk('assign-categories-to-posts', { post_ids: ids, category_ids: [cat.id] }),
    );
    expect(perPost(result as BulkAnswer).updated).toEqual([...ids].sort((a, b) => a - b));
    expect(requests).toBe(1 + 1 + 1);
    console.info(`assign-categories-to-posts (plugin): ${requests} HTTP requests for 130 posts`);
    const posts = await readPosts(ids);
    for (const id of ids) expect(posts.get(id)?.categories).toContain(cat.id);
    const again = await countRequests(() =>
      callOk('assign-categories-to-posts', { post_ids: ids, category_ids: [cat.id] }),
    );
    expect(perPost(again.result as BulkAnswer).unchanged).toHaveLength(130);
    expect(again.requests).toBe(3);
  });
});
