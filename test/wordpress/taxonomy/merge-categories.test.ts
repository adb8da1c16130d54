import { beforeAll, describe, expect, it } from 'vitest';
import { findTool, reviewCall } from '../../../src/call/index.js';
import { applyMerge } from '../../../src/tools/taxonomy/merge.js';
import { CATEGORY } from '../../../src/tools/taxonomy/terms.js';
import { call, callOk, callOkIn, restOnlyContext, testContext, wordPressAtLeast } from '../../helpers/site.js';
import { countRequests, makeCategory, makePosts, readPosts, readTerm, STATUSES } from './fixtures.js';

describe('merge-categories', () => {
  // 121 posts over the five statuses: 60 only in s1, 60 only in s2, one in both; every third
  // also in `keep`, which must survive the merge.
  let target: { id: number };
  let s1: { id: number };
  let s2: { id: number };
  let keep: { id: number };
  let child: { id: number };
  let postIds: number[];

  beforeAll(async () => {
    target = await makeCategory('Target');
    s1 = await makeCategory('Source 1');
    s2 = await makeCategory('Source 2');
    keep = await makeCategory('Keep');
    child = await makeCategory('Child of source', s1.id);
    postIds = await makePosts([
      ...Array.from({ length: 120 }, (_, i) => ({
        status: STATUSES[i % 5],
        categories: [i < 60 ? s1.id : s2.id, ...(i % 3 === 0 ? [keep.id] : [])],
      })),
      { status: 'future' as const, categories: [s1.id, s2.id] },
    ]);
  });

  it('dry run returns the plan and writes nothing', async () => {
    const before = await readPosts(postIds);
    const plan = await callOk('merge-categories', {
      source_ids: [s1.id, s2.id],
      target_id: target.id,
      delete_sources: true,
      dry_run: true,
    });
    expect(plan).toMatchObject({
      dry_run: true,
      target_id: target.id,
      posts_to_move: 121,
      post_ids_truncated: true,
      children_to_reparent: [child.id],
      sources_to_delete: [s1.id, s2.id],
    });
    expect(plan.post_ids).toHaveLength(100);
    expect(await readPosts(postIds)).toEqual(before);
    expect(await readTerm('categories', s1.id)).toBeDefined();
    expect((await readTerm('categories', child.id))?.parent).toBe(s1.id);
  });

  it('refuses unknown ids, a source equal to the target and duplicates, writing nothing', async () => {
    const before = await readPosts(postIds.slice(0, 5));
    const unknown = await call('merge-categories', {
      source_ids: [s1.id, 999_999],
      target_id: target.id,
      delete_sources: true,
    });
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'category_not_found', details: { missing_ids: [999_999] } },
    });
    expect(await call('merge-categories', { source_ids: [s1.id], target_id: 999_999 })).toMatchObject({
      ok: false,
      error: { code: 'category_not_found', details: { missing_ids: [999_999] } },
    });
    const self = await call('merge-categories', { source_ids: [s1.id, target.id], target_id: target.id });
    expect(self).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: expect.stringContaining('target_id') },
    });
    expect(await call('merge-categories', { source_ids: [s1.id, s1.id], target_id: target.id })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(await call('merge-categories', { source_ids: [], target_id: target.id })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(await readPosts(postIds.slice(0, 5))).toEqual(before);
    expect(await readTerm('categories', s1.id)).toBeDefined();
  });

  it('refuses to delete the default category as a source', async () => {
    const outcome = await call('merge-categories', { source_ids: [1], target_id: target.id, delete_sources: true });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'cannot_delete_default_category' } });
  });

  it('moves every post of every status (over 100), once each, re-parents children, deletes the sources', async () => {
    const { result, requests } = await countRequests(() =>
      callOk('merge-categories', { source_ids: [s1.id, s2.id], target_id: target.id, delete_sources: true }),
    );
    expect(result).toEqual({
      target_id: target.id,
      posts_moved: 121,
      posts_failed: [],
      sources_deleted: [s1.id, s2.id],
      children_reparented: [child.id],
    });
    // 1 id check + 1 default category + 1 page of posts (the plugin's read route, 500 a page) + 2 children lists
    // + 1 bulk request (121 posts, companion plugin) + 1 batch (the child) + 1 check the target exists
    // + before deleting: 1 read of the sources' remaining posts (none) and 1 of the target + 1 batch of deletes
    console.info(`merge-categories: ${requests} HTTP requests for 121 posts, 2 sources, 1 child`);
    expect(requests).toBe(1 + 1 + 1 + 2 + 1 + 1 + 1 + 2 + 1);

    const posts = await readPosts(postIds);
    expect(posts.size).toBe(121);
    postIds.forEach((id, i) => {
      const expected = i < 120 && i % 3 === 0 ? [target.id, keep.id] : [target.id];
      expect(posts.get(id)?.categories.sort()).toEqual(expected.sort());
    });
    expect(new Set([...posts.values()].map((p) => p.status))).toEqual(new Set(STATUSES));
    expect(await readTerm('categories', s1.id)).toBeUndefined();
    expect(await readTerm('categories', s2.id)).toBeUndefined();
    expect((await readTerm('categories', child.id))?.parent).toBe(target.id);
  });

  it('without delete_sources keeps the (now empty) sources', async () => {
    const t = await makeCategory('T2');
    const s = await makeCategory('S2');
    const ids = await makePosts([{ status: 'draft', categories: [s.id] }]);
    const result = await callOk('merge-categories', { source_ids: [s.id], target_id: t.id });
    expect(result).toEqual({
      target_id: t.id,
      posts_moved: 1,
      posts_failed: [],
      sources_deleted: [],
      children_reparented: [],
    });
    expect(await readTerm('categories', s.id)).toBeDefined();
    expect((await readPosts(ids)).get(ids[0] as number)?.categories).toEqual([t.id]);
  });

  it('a target inside a source keeps its place; the source’s other children move under it', async () => {
    const source = await makeCategory('Outer');
    const inner = await makeCategory('Inner target', source.id);
    const sibling = await makeCategory('Sibling', source.id);
    const result = await callOk('merge-categories', {
      source_ids: [source.id],
      target_id: inner.id,
      delete_sources: true,
    });
    expect(result).toMatchObject({ sources_deleted: [source.id], children_reparented: [sibling.id] });
    expect((await readTerm('categories', sibling.id))?.parent).toBe(inner.id);
    // WordPress moves the deleted source's remaining child (the target) to the source's parent.
    expect((await readTerm('categories', inner.id))?.parent).toBe(0);
  });

  it('needs approval unless it is a dry run, and the prompt names the categories', async () => {
    const tool = findTool('merge-categories');
    if (!tool) throw new Error('merge-categories is not registered');
    expect(tool.annotations).toEqual({ readOnly: false, destructive: true, idempotent: true });
    const a = await makeCategory('Review A');
    const b = await makeCategory('Review B');
    const real = await reviewCall(tool, testContext(), { source_ids: [a.id], target_id: b.id, delete_sources: true });
    expect(real).toMatchObject({
      approval: 'required',
      summary: expect.stringMatching(/^merge the categories "Review A[^"]*" into "Review B[^"]*", then delete them$/),
    });
    const dry = await reviewCall(tool, testContext(), { source_ids: [a.id], target_id: b.id, dry_run: true });
    expect(dry.approval).toBe('none');
  });

  it.each([
    ['with the companion plugin', () => testContext(), 'post_not_found'],
    ['REST only', () => restOnlyContext(), 'post_not_found'],
  ])(
    'keeps the sources when a post could not be moved (a post deleted between plan and write), %s',
    async (_label, context, code) => {
      const t = await makeCategory('T3');
      const s = await makeCategory('S3');
      const [id] = (await makePosts([{ status: 'pending', categories: [s.id] }])) as [number];
      const plan = {
        kind: CATEGORY,
        targetId: t.id,
        sourceIds: [s.id],
        children: [],
        deleteSources: true,
        posts: [
          { id, terms: [s.id], route: '/wp/v2/posts' },
          { id: 999_999, terms: [s.id], route: '/wp/v2/posts' },
        ],
      };
      const report = await applyMerge(context().client, plan);
      expect(report).toMatchObject({
        posts_moved: 1,
        sources_deleted: [],
        posts_failed: [{ post_id: 999_999, error: { code } }],
      });
      expect(report.sources_kept_reason).toContain('1 post(s)');
      expect(await readTerm('categories', s.id)).toBeDefined();
      expect((await readPosts([id])).get(id)?.categories).toEqual([t.id]);
    },
  );
  it('without the companion plugin: every post moved through /batch/v1, sources deleted', async () => {
    const context = restOnlyContext();
    const [t, a, b] = [await makeCategory('REST T'), await makeCategory('REST A'), await makeCategory('REST B')];
    const ids = await makePosts(
      Array.from({ length: 30 }, (_, i) => ({ status: STATUSES[i % 5], categories: [i % 2 ? a.id : b.id] })),
    );
    const { result, requests } = await countRequests(
      () => callOkIn(context, 'merge-categories', { source_ids: [a.id, b.id], target_id: t.id, delete_sources: true }),
      context,
    );
    expect(result).toMatchObject({ posts_moved: 30, posts_failed: [], sources_deleted: [a.id, b.id] });
    // 1 id check + 1 default category + 1 page of posts + 2 children lists + the site lock (create,
    // list, delete) + 1 read of the posts under it + 2 batches (30 posts) + 1 read-back + 1 target check
    // + before deleting: 1 read of the sources' remaining posts and 1 of the target + 1 batch of deletes
    expect(requests).toBe(1 + 1 + 1 + 2 + (wordPressAtLeast('6.4') ? 3 : 5) + 1 + 2 + 1 + 1 + 2 + 1);
    const posts = await readPosts(ids);
    for (const id of ids) expect(posts.get(id)?.categories).toEqual([t.id]);
    expect(await readTerm('categories', a.id)).toBeUndefined();
  });
});
