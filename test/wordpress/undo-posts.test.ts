import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import type { ToolContext } from '../../src/call/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange, undoLast } from '../../src/undo/undo.js';
import { callOkIn, testSite, withoutCompanion, wp } from '../helpers/site.js';
import { countRequests, makeCategory, makePosts, makeTag, readPosts, readTerm } from './taxonomy/fixtures.js';

/** Both write paths: the companion plugin's bulk route, and /batch/v1 of core. */
const paths: Array<[string, () => ToolContext]> = [
  ['bulk route', () => createContext(testSite(), { journal: memoryJournal() })],
  ['core /batch/v1', () => withoutCompanion(createContext(testSite(), { journal: memoryJournal() }))],
];

async function snapshot(posts: number[]) {
  const now = await readPosts(posts);
  return posts.map((id) => ({
    id,
    categories: [...(now.get(id)?.categories ?? [])].sort(),
    tags: [...(now.get(id)?.tags ?? [])].sort(),
  }));
}

async function bySlug(slug: string) {
  const [term] = await wp().get<Array<{ id: number; name: string; parent: number; description: string }>>(
    '/wp/v2/categories',
    {
      slug,
      hide_empty: false,
      context: 'edit',
    },
  );
  if (!term) throw new Error(`no category ${slug}`);
  return term;
}

describe.each(paths)('undo of post-term writes (%s)', (_path, makeContext) => {
  it('merge-categories with delete_sources → undo recreates the sources, gives every post its sources back and restores children', async () => {
    const context = makeContext();
    const journal = context.journal!;
    const [a, b, target] = [
      await makeCategory('Undo src A'),
      await makeCategory('Undo src B'),
      await makeCategory('Undo tgt'),
    ];
    const child = await makeCategory('Undo child', a.id);
    const slugs = [(await readTerm('categories', a.id))!.slug, (await readTerm('categories', b.id))!.slug];
    const posts = await makePosts([
      { categories: [a.id] },
      { categories: [a.id, b.id], status: 'draft' },
      { categories: [b.id, target.id] },
      { categories: [target.id] },
    ]);
    const before = await snapshot(posts);
    const merged = await callOkIn(context, 'merge-categories', {
      source_ids: [a.id, b.id],
      target_id: target.id,
      delete_sources: true,
    });
    expect(merged.sources_deleted).toEqual([a.id, b.id]);

    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    const [newA, newB] = [await bySlug(slugs[0]!), await bySlug(slugs[1]!)];
    expect([newA.name, newB.name]).toEqual([a.name, b.name]);
    const map = (ids: number[]) => ids.map((id) => (id === a.id ? newA.id : id === b.id ? newB.id : id)).sort();
    expect(await snapshot(posts)).toEqual(before.map((p) => ({ ...p, categories: map(p.categories) })));
    expect((await readTerm('categories', child.id))?.parent).toBe(newA.id);
  });

  it('assign and remove → undo gives each post exactly its previous terms; a post re-tagged meanwhile keeps that change, loses only what the calls did', async () => {
    const context = makeContext();
    const journal = context.journal!;
    const [t1, t2, t3] = [await makeTag('Undo t1'), await makeTag('Undo t2'), await makeTag('Undo t3')];
    const posts = await makePosts([{ tags: [t1.id] }, { tags: [] }, { tags: [t1.id, t2.id] }]);
    const before = await snapshot(posts);
    await callOkIn(context, 'assign-tags-to-posts', { post_ids: posts, tag_ids: [t2.id, t3.id] });
    await callOkIn(context, 'remove-terms-from-posts', { taxonomy: 'post_tag', post_ids: posts, term_ids: [t1.id] });
    // Someone else re-tags the last post after both writes.
    await wp().post(`/wp/v2/posts/${posts[2]}`, { tags: [t3.id] });
    const reports = await undoLast(context, journal, 2);
    // #34.4: each undo reverses its call's own change (t1 given back, t3 taken off); the other
    // writer's removal of t2 stands. No conflict: nothing the calls did was touched.
    expect(reports.map((r) => r.conflicts)).toEqual([[], []]);
    const now = await snapshot(posts);
    expect(now.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(now[2]!.tags).toEqual([t1.id]);
  });

  it('remove of a post’s last category → undo takes the default category off again', async () => {
    const context = makeContext();
    const cat = await makeCategory('Undo last');
    const posts = await makePosts([{ categories: [cat.id] }]);
    await callOkIn(context, 'remove-terms-from-posts', { taxonomy: 'category', post_ids: posts, term_ids: [cat.id] });
    expect((await readPosts(posts)).get(posts[0]!)?.categories).toEqual([1]);
    await undoChange(context, context.journal!);
    expect((await readPosts(posts)).get(posts[0]!)?.categories).toEqual([cat.id]);
  });
});

describe('bulk undo', () => {
  it('undoing a merge of 300 posts takes a few requests, not one per post', { timeout: 180_000 }, async () => {
    const context = createContext(testSite(), { journal: memoryJournal() });
    const [a, target] = [await makeCategory('Undo bulk src'), await makeCategory('Undo bulk tgt')];
    const posts: number[] = [];
    for (let i = 0; i < 3; i++)
      posts.push(...(await makePosts(Array.from({ length: 100 }, () => ({ categories: [a.id] })))));
    // What the journal costs a write: the posts' terms read before and after it (100 a request).
    const plain = createContext(testSite());
    const [other, more] = [await makeCategory('Undo bulk plain'), await makeCategory('Undo bulk journalled')];
    const cost = async (ctx: ToolContext, id: number) =>
      (
        await countRequests(
          () => callOkIn(ctx, 'assign-categories-to-posts', { post_ids: posts, category_ids: [id] }),
          ctx,
        )
      ).requests;
    const [without, within] = [await cost(plain, other.id), await cost(context, more.id)];
    console.log(`assign to 300 posts: ${without} requests without the journal, ${within} with it`);
    expect(within - without).toBeLessThanOrEqual(8);
    await callOkIn(context, 'merge-categories', { source_ids: [a.id], target_id: target.id });
    const { result, requests } = await countRequests(() => undoChange(context, context.journal!), context);
    expect(result.restored.filter((item) => item.startsWith('post '))).toHaveLength(300);
    console.log(`undo of a merge of 300 posts: ${requests} requests`);
    expect(requests).toBeLessThan(20);
    const now = await readPosts(posts);
    const want = [a.id, other.id, more.id].sort().join();
    expect(posts.every((id) => [...(now.get(id)?.categories ?? [])].sort().join() === want)).toBe(true);
  });
});
