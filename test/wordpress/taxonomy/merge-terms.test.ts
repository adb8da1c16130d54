import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { findTool, reviewCall } from '../../../src/call/index.js';
import { callIn, callOkIn, testSite, unique, wp } from '../../helpers/site.js';
import { makeTag, readTerm } from './fixtures.js';

/**
 * merge-terms for any taxonomy. Tags go on pages and books too while the sandbox's
 * `cms_sandbox_shared_terms` is on, so a merge must move posts of every type and status.
 */
beforeAll(async () => {
  await wp().post('/wp/v2/settings', { cms_sandbox_shared_terms: true });
});
afterAll(async () => {
  await wp().post('/wp/v2/settings', { cms_sandbox_shared_terms: false });
});

// A new client per test: the post types a taxonomy is on are cached per client.
const fresh = () => createContext(testSite());
async function item(route: string, body: Record<string, unknown>): Promise<number> {
  return (await wp().post<{ id: number }>(route, { title: unique('Item'), ...body })).id;
}
async function termsOf(route: string, id: number, field: string): Promise<number[]> {
  const post = await wp().get<Record<string, number[]>>(`${route}/${id}`, { context: 'edit', _fields: field });
  return (post[field] ?? []).sort((a, b) => a - b);
}

describe('merge-terms', () => {
  it('merges tags (JS, Javascript → JavaScript): posts, pages and books of every status move; sources deleted', async () => {
    const [js, javascript, target, keep] = [await makeTag('JS'), await makeTag('Javascript'), await makeTag('JavaScript'), await makeTag('Keep')];
    const items: Array<[string, number]> = [];
    for (const [route, status] of [
      ['/wp/v2/posts', 'publish'],
      ['/wp/v2/posts', 'draft'],
      ['/wp/v2/posts', 'private'],
      ['/wp/v2/pages', 'pending'],
      ['/wp/v2/books', 'draft'],
    ] as const) {
      items.push([route, await item(route, { status, tags: [js.id, keep.id] })]);
    }
    items.push(['/wp/v2/posts', await item('/wp/v2/posts', { status: 'future', date: '2035-01-01T10:00:00', tags: [javascript.id] })]);
    const trashed = await item('/wp/v2/posts', { status: 'publish', tags: [javascript.id] });
    await wp().delete(`/wp/v2/posts/${trashed}`);
    items.push(['/wp/v2/posts', trashed]);

    const context = fresh();
    const review = await reviewCall(findTool('merge-terms')!, context, {
      taxonomy: 'post_tag',
      source_ids: [js.id, javascript.id],
      target_id: target.id,
      delete_sources: true,
    });
    expect(review).toMatchObject({ approval: 'required', summary: expect.stringContaining(`"${js.name}"`) });

    const report = await callOkIn(context, 'merge-terms', {
      taxonomy: 'post_tag',
      source_ids: [js.id, javascript.id],
      target_id: target.id,
      delete_sources: true,
    });
    expect(report).toMatchObject({ posts_moved: items.length, sources_deleted: [js.id, javascript.id] });
    for (const [route, id] of items) {
      const tags = await termsOf(route, id, 'tags');
      expect(tags, `${route}/${id}`).toContain(target.id);
      expect(tags).not.toContain(js.id);
      expect(tags).not.toContain(javascript.id);
    }
    expect(await termsOf('/wp/v2/pages', items[3]![1], 'tags')).toEqual([target.id, keep.id].sort((a, b) => a - b));
    expect(await readTerm('tags', js.id)).toBeUndefined();
    expect(await readTerm('tags', javascript.id)).toBeUndefined();
  });

  it('product_cat (REST base differs from its slug): products move, children go under the target', async () => {
    const route = '/shop/v1/product-categories';
    const make = async (parent?: number) =>
      (await wp().post<{ id: number }>(route, { name: unique('Cat'), ...(parent ? { parent } : {}) })).id;
    const [source, target] = [await make(), await make()];
    const child = await make(source);
    const product = await item('/wp/v2/products', { status: 'draft', 'product-categories': [source] });
    const report = await callOkIn(fresh(), 'merge-terms', { taxonomy: 'product_cat', source_ids: [source], target_id: target });
    expect(report).toMatchObject({ posts_moved: 1, children_reparented: [child], sources_deleted: [] });
    expect(await termsOf('/wp/v2/products', product, 'product-categories')).toEqual([target]);
    expect((await wp().get<{ parent: number }>(`${route}/${child}`)).parent).toBe(target);
  });

  it('genre: a dry run changes nothing; ids of another taxonomy are refused', async () => {
    const genre = async () => (await wp().post<{ id: number }>('/wp/v2/genres', { name: unique('Genre') })).id;
    const [source, target] = [await genre(), await genre()];
    const post = await item('/wp/v2/posts', { status: 'publish', genres: [source] });
    const plan = await callOkIn(fresh(), 'merge-terms', { taxonomy: 'genre', source_ids: [source], target_id: target, dry_run: true });
    expect(plan).toMatchObject({ dry_run: true, posts_to_move: 1, post_ids: [post] });
    expect(await termsOf('/wp/v2/posts', post, 'genres')).toEqual([source]);
    const tag = await makeTag('NotAGenre');
    expect(await callIn(fresh(), 'merge-terms', { taxonomy: 'genre', source_ids: [tag.id], target_id: target })).toMatchObject({
      ok: false,
      error: { code: 'term_not_found', details: { missing_ids: [tag.id] } },
    });
    expect(await termsOf('/wp/v2/posts', post, 'genres')).toEqual([source]);
  });
});
