import { describe, expect, it } from 'vitest';
import { call, callOk, unique, wp } from '../../helpers/site.js';
import { makeCategory, makePosts, makeTag } from './fixtures.js';
import { WordPressError } from '../../../src/client/index.js';

/** The generic term tools on every kind of taxonomy; each write read back through wp(). */
async function readAt(route: string, id: number): Promise<Record<string, any> | undefined> {
  try {
    return await wp().get(`${route}/${id}`, { context: 'edit' });
  } catch (err) {
    if (err instanceof WordPressError && err.status === 404) return undefined;
    throw err;
  }
}

// product_cat: REST base and namespace differ from its slug (sandbox mu-plugin's shop fixture).
const ROUTES = {
  category: '/wp/v2/categories',
  post_tag: '/wp/v2/tags',
  genre: '/wp/v2/genres',
  product_cat: '/shop/v1/product-categories',
} as const;

describe.each(Object.entries(ROUTES))('term tools on %s', (taxonomy, route) => {
  it('create, list, update (name, slug, description), delete: each read back', async () => {
    const name = unique('Jazz & Blues');
    const slug = unique('jazz').toLowerCase().replace(/\s+/g, '-');
    const created = await callOk('create-term', { taxonomy, name, slug, description: 'Swing' });
    expect(created).toMatchObject({ name, slug, description: 'Swing' });
    expect(await readAt(route, created.id)).toMatchObject({ slug, description: 'Swing', taxonomy });

    const listed = await callOk('list-terms', { taxonomy, search: name });
    expect(listed.items.map((t: { id: number }) => t.id)).toEqual([created.id]);

    const renamed = unique('Jazz');
    await callOk('update-term', { taxonomy, id: created.id, name: renamed, slug: `${slug}-x`, description: '' });
    expect(await readAt(route, created.id)).toMatchObject({ name: renamed, slug: `${slug}-x`, description: '' });

    const deleted = await callOk('delete-term', { taxonomy, id: created.id });
    expect(deleted.deleted).toEqual({ id: created.id, name: renamed });
    expect(await readAt(route, created.id)).toBeUndefined();
  });

  it('a slug another term has is refused, nothing written', async () => {
    const a = await callOk('create-term', { taxonomy, name: unique('A') });
    const b = await callOk('create-term', { taxonomy, name: unique('B') });
    const outcome = await call('update-term', { taxonomy, id: b.id, slug: a.slug });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'term_exists', details: { existing_id: a.id } } });
    expect((await readAt(route, b.id))?.slug).toBe(b.slug);
    const again = await call('create-term', { taxonomy, name: unique('C'), slug: a.slug });
    expect(again).toMatchObject({ ok: false, error: { code: 'term_exists' } });
  });
});

describe('term tools across taxonomies', () => {
  it('an id from another taxonomy is refused and nothing changes', async () => {
    const tag = await makeTag('Other');
    const outcome = await call('update-term', { taxonomy: 'genre', id: tag.id, name: 'Hijack' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'term_not_found' } });
    expect(await readAt('/wp/v2/tags', tag.id)).toMatchObject({ name: tag.name });
    expect(await call('delete-term', { taxonomy: 'category', id: tag.id, force: true })).toMatchObject({
      ok: false,
      error: { code: 'term_not_found' },
    });
    expect(await readAt('/wp/v2/tags', tag.id)).toBeDefined();
  });

  it('unknown and non-REST taxonomies: an error naming the taxonomies that exist', async () => {
    for (const taxonomy of ['no_such_tax', 'sandbox_private']) {
      const outcome = await call('list-terms', { taxonomy });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'taxonomy_not_found' } });
      if (!outcome.ok) expect(outcome.error.message).toMatch(/category, .*genre.*post_tag/);
    }
  });

  it('in use by a post of any status: refused unless force', async () => {
    const genre = await wp().post<{ id: number; name: string }>('/wp/v2/genres', { name: unique('Noir') });
    const [postId] = await makePosts([{ status: 'draft' }]);
    await wp().post(`/wp/v2/posts/${postId}`, { genres: [genre.id] });
    const outcome = await call('delete-term', { taxonomy: 'genre', id: genre.id });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'term_in_use', details: { posts: 1 } } });
    expect(await readAt('/wp/v2/genres', genre.id)).toBeDefined();
    expect(await callOk('delete-term', { taxonomy: 'genre', id: genre.id, force: true })).toMatchObject({
      posts_affected: 1,
    });
    expect(await readAt('/wp/v2/genres', genre.id)).toBeUndefined();
  });

  it('product_cat: children, and in use by a draft product (a custom post type) refused unless force', async () => {
    const parent = await callOk('create-term', { taxonomy: 'product_cat', name: unique('Shoes') });
    const child = await callOk('create-term', { taxonomy: 'product_cat', name: unique('Boots'), parent: parent.id });
    expect(await readAt(ROUTES.product_cat, child.id)).toMatchObject({ parent: parent.id, taxonomy: 'product_cat' });
    const product = await wp().post<{ id: number }>('/wp/v2/products', {
      title: unique('Boot'),
      status: 'draft',
      'product-categories': [parent.id],
    });
    expect(await call('delete-term', { taxonomy: 'product_cat', id: parent.id })).toMatchObject({
      ok: false,
      error: { code: 'term_in_use', details: { posts: 1 } },
    });
    const deleted = await callOk('delete-term', { taxonomy: 'product_cat', id: parent.id, force: true });
    expect(deleted.children_reparented).toEqual([{ id: child.id, name: child.name, new_parent: 0 }]);
    expect(await readAt(ROUTES.product_cat, parent.id)).toBeUndefined();
    expect(await readAt(ROUTES.product_cat, child.id)).toMatchObject({ parent: 0 });
    const stored = await wp().get<Record<string, number[]>>(`/wp/v2/products/${product.id}`, { context: 'edit' });
    expect(stored['product-categories']).toEqual([]);
  });

  it('a parent on a flat taxonomy is refused; on categories it is checked', async () => {
    expect(await call('create-term', { taxonomy: 'genre', name: unique('G'), parent: 1 })).toMatchObject({
      ok: false,
      error: { code: 'not_hierarchical' },
    });
    expect(await call('list-terms', { taxonomy: 'post_tag', parent: 0 })).toMatchObject({
      ok: false,
      error: { code: 'not_hierarchical' },
    });
    const parent = await makeCategory('Parent');
    const child = await callOk('create-term', { taxonomy: 'category', name: unique('Child'), parent: parent.id });
    expect(await readAt('/wp/v2/categories', child.id)).toMatchObject({ parent: parent.id });
    expect(await call('update-term', { taxonomy: 'category', id: parent.id, parent: child.id })).toMatchObject({
      ok: false,
      error: { code: 'parent_cycle' },
    });
  });

  it('create-category takes a slug and a description', async () => {
    const slug = unique('latest').toLowerCase().replace(/\s+/g, '-');
    const created = await callOk('create-category', { name: unique('News'), slug, description: 'Newest' });
    expect(await readAt('/wp/v2/categories', created.id)).toMatchObject({ slug, description: 'Newest' });
    await callOk('update-category', { id: created.id, description: 'Latest news' });
    expect(await readAt('/wp/v2/categories', created.id)).toMatchObject({ slug, description: 'Latest news' });
  });
});
