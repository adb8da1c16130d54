import { afterEach, describe, expect, it } from 'vitest';
import { stepOptions } from '../../../src/client/index.js';
import { createContext } from '../../../src/config.js';
import type { ToolContext } from '../../../src/call/index.js';
import { relations, siteState } from '../../reliability/bulk-terms-fixture.js';
import { callOkIn, testSite, unique, wp } from '../../helpers/site.js';
import { wpPhp } from '../users/helpers.js';

/**
 * Issue #61, "batches bounded by time": the companion plugin's term bulk routes take as much as
 * fits in the time budget the client gives and answer the rest (`remaining`); the client sends
 * those again until the job is done. Given a 1 ms budget, each route answers partially and the
 * tool still completes the job — WordPress read back from its database.
 */
afterEach(() => {
  stepOptions.budgetMs = undefined;
});

const N = 6;

/** A context whose client counts its POSTs per route (our own client, not WordPress, is watched). */
function counted(): { context: ToolContext; posts: (route: RegExp) => number } {
  const context = createContext(testSite());
  const seen: string[] = [];
  const post = context.client.post.bind(context.client);
  context.client.post = ((path: string, ...rest: unknown[]) => {
    seen.push(path);
    return (post as (...a: unknown[]) => Promise<unknown>)(path, ...rest);
  }) as typeof context.client.post;
  return { context, posts: (route) => seen.filter((p) => route.test(p)).length };
}

async function seed(prefix: string) {
  return JSON.parse(
    await wpPhp(`$p = ${JSON.stringify(prefix)}; $cats = []; $tags = []; $posts = [];
      for ($i = 0; $i < ${N}; $i++) {
        $cats[] = wp_insert_term("$p cat $i", 'category')['term_id'];
        $tags[] = wp_insert_term("$p tag $i", 'post_tag')['term_id'];
      }
      $parent = wp_insert_term("$p parent", 'category')['term_id'];
      foreach ($cats as $i => $c) $posts[] = wp_insert_post(['post_title' => "$p $i", 'post_status' => 'publish', 'post_category' => [$c, 1]]);
      echo json_encode(compact('cats', 'tags', 'posts', 'parent'));`),
  ) as { cats: number[]; tags: number[]; posts: number[]; parent: number };
}

describe('term bulk routes bounded by time (#61)', () => {
  it('a route given a 1 ms budget takes one item and answers the rest', async () => {
    const prefix = unique('Budget raw').replace(/\s+/g, '-');
    const s = await seed(prefix);
    const answer = await wp().post<{ deleted: number[]; remaining: number[] }>('/cms-admin/v1/terms/delete', {
      taxonomy: 'post_tag',
      terms: s.tags.map((id) => ({ id, holders: [] })),
      budget_ms: 1,
    });
    expect(answer.deleted.length).toBeGreaterThanOrEqual(1);
    expect(answer.deleted.length).toBeLessThan(N);
    expect([...answer.deleted, ...answer.remaining].sort((a, b) => a - b)).toEqual([...s.tags].sort((a, b) => a - b));
  });

  it('with a 1 ms budget, migrate-terms, prune-terms, set-terms-parent and assign-tags-to-posts each take several requests and finish the job', async () => {
    const prefix = unique('Budget').replace(/\s+/g, '-');
    const slug = prefix.toLowerCase();
    const s = await seed(prefix);
    stepOptions.budgetMs = 1;
    const { context, posts } = counted();

    await callOkIn(context, 'assign-tags-to-posts', { post_ids: s.posts, tag_ids: [s.tags[0]] });
    expect(posts(/\/cms-admin\/v1\/post-terms$/)).toBeGreaterThan(1);
    const assigned = await relations(s.posts);
    for (const id of s.posts) expect(assigned[id]?.post_tag).toEqual([`${slug}-tag-0`]);

    await callOkIn(context, 'set-terms-parent', { taxonomy: 'category', term_ids: s.cats, parent: s.parent });
    expect(posts(/\/terms\/parent$/)).toBeGreaterThan(1);
    const moved = (await siteState({ prefix, posts: s.posts })).category;
    for (let i = 0; i < N; i++) expect(moved[`${slug}-cat-${i}`]?.parent).toBe(`${slug}-parent`);

    const migrated = await callOkIn(context, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: s.cats });
    expect(posts(/\/terms\/migrate-objects$/)).toBeGreaterThan(1);
    expect(migrated.terms.every((t: { source_deleted: boolean }) => t.source_deleted === true)).toBe(true);
    const after = await relations(s.posts);
    for (const [i, id] of s.posts.entries())
      expect(after[id]).toEqual({ category: ['uncategorized'], post_tag: [`${slug}-cat-${i}`, `${slug}-tag-0`].sort() });

    const pruned = await callOkIn(context, 'prune-terms', { taxonomy: 'post_tag', search: `${prefix} tag` });
    expect(posts(/\/terms\/delete$/)).toBeGreaterThan(2); // the migration's deletion, then the prune's
    expect(pruned.deleted).toBe(N - 1);
    expect(Object.keys((await siteState({ prefix, posts: [] })).post_tag).filter((t) => t.startsWith(`${slug}-tag`))).toEqual([`${slug}-tag-0`]);
  });
});
