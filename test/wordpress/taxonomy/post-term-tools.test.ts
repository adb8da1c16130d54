import { describe, expect, it } from 'vitest';
import { findTool, reviewCall } from '../../../src/call/index.js';
import { call, callIn, callOk, callOkIn, restOnlyContext, testContext, unique, wp } from '../../helpers/site.js';
import { makeCategory, makePosts, makeTag, readPosts } from './fixtures.js';

/** assign-terms-to-posts and remove-terms-from-posts on every kind of taxonomy, read back through wp(). */
const TAXONOMIES = [
  { taxonomy: 'category', terms: '/wp/v2/categories', field: 'categories', posts: '/wp/v2/posts' },
  { taxonomy: 'post_tag', terms: '/wp/v2/tags', field: 'tags', posts: '/wp/v2/posts' },
  { taxonomy: 'genre', terms: '/wp/v2/genres', field: 'genres', posts: '/wp/v2/posts' },
  { taxonomy: 'product_cat', terms: '/shop/v1/product-categories', field: 'product-categories', posts: '/wp/v2/products' },
];

const term = async (route: string) => (await wp().post<{ id: number; name: string }>(route, { name: unique('Term') })).id;
async function item(route: string, body: Record<string, unknown>): Promise<number> {
  return (await wp().post<{ id: number }>(route, { title: unique('Item'), ...body })).id;
}
async function termsOf(route: string, id: number, field: string): Promise<number[]> {
  const post = await wp().get<Record<string, number[]>>(`${route}/${id}`, { context: 'edit', _fields: field });
  return (post[field] ?? []).sort((a, b) => a - b);
}

describe.each(TAXONOMIES)('post-term tools on $taxonomy', ({ taxonomy, terms, field, posts }) => {
  it('assign adds, remove takes only the given terms off (other terms kept), any status', async () => {
    const [a, b, keep] = [await term(terms), await term(terms), await term(terms)];
    const ids = [
      await item(posts, { status: 'draft', [field]: [keep] }),
      await item(posts, { status: 'private', [field]: [keep] }),
    ];
    const added = await callOk('assign-terms-to-posts', { taxonomy, post_ids: ids, term_ids: [a, b] });
    expect(added).toMatchObject({ updated: 2, failed: 0 });
    for (const id of ids) expect(await termsOf(posts, id, field)).toEqual([a, b, keep].sort((x, y) => x - y));

    const removed = await callOk('remove-terms-from-posts', { taxonomy, post_ids: ids, term_ids: [a, b] });
    expect(removed).toMatchObject({ updated: 2, failed: 0 });
    expect(removed.filed_under_default_category).toBeUndefined();
    for (const id of ids) expect(await termsOf(posts, id, field)).toEqual([keep]);
  });

  it('ids of another taxonomy are refused, nothing written', async () => {
    const other = await makeTag('Elsewhere');
    const id = await item(posts, { status: 'draft' });
    const before = await termsOf(posts, id, field);
    if (taxonomy !== 'post_tag') {
      for (const tool of ['assign-terms-to-posts', 'remove-terms-from-posts']) {
        expect(await call(tool, { taxonomy, post_ids: [id], term_ids: [other.id] })).toMatchObject({
          ok: false,
          error: { code: 'term_not_found', details: { missing_ids: [other.id] } },
        });
      }
    }
    expect(await termsOf(posts, id, field)).toEqual(before);
  });
});

describe('remove-terms-from-posts', () => {
  it.each([
    ['companion plugin', testContext],
    ['core REST only', restOnlyContext],
  ])('%s: a post that loses its last category is filed under the default category, and says so', async (_, context) => {
    const cat = await makeCategory('Last');
    const other = await makeCategory('Other');
    const [alone, withOther] = await makePosts([{ categories: [cat.id] }, { categories: [cat.id, other.id] }]);
    const defaultId = (await wp().get<{ default_category: number }>('/wp/v2/settings')).default_category;
    const result = await callOkIn(context(), 'remove-terms-from-posts', {
      taxonomy: 'category',
      post_ids: [alone, withOther],
      term_ids: [cat.id],
    });
    expect(result.filed_under_default_category).toMatchObject({ category_id: defaultId, post_ids: String(alone) });
    const state = await readPosts([alone!, withOther!]);
    expect(state.get(alone!)?.categories).toEqual([defaultId]);
    expect(state.get(withOther!)?.categories).toEqual([other.id]);
  });

  it('asks approval for more than a few posts, naming the term and the count read from the site', async () => {
    const old = await makeTag('Old');
    const ids = await makePosts([{ tags: [old.id] }, { tags: [old.id] }, { tags: [old.id] }, { tags: [old.id] }, {}]);
    const tool = findTool('remove-terms-from-posts')!;
    const many = await reviewCall(tool, testContext(), { taxonomy: 'post_tag', post_ids: ids, term_ids: [old.id] });
    expect(many).toMatchObject({
      approval: 'required',
      summary: expect.stringMatching(new RegExp(`remove the tags "${old.name}" on 4 post\\(s\\)`)),
    });
    const few = await reviewCall(tool, testContext(), { taxonomy: 'post_tag', post_ids: ids.slice(0, 2), term_ids: [old.id] });
    expect(few.approval).toBe('none');
    expect((await readPosts(ids)).get(ids[0]!)?.tags).toEqual([old.id]);
  });

  it('an unknown taxonomy is an error naming the ones that exist', async () => {
    const [id] = await makePosts([{}]);
    const outcome = await callIn(testContext(), 'remove-terms-from-posts', { taxonomy: 'colour', post_ids: [id], term_ids: [1] });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'taxonomy_not_found' } });
    if (!outcome.ok) expect(outcome.error.message).toContain('product_cat');
  });
});
