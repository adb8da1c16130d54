import { describe, expect, it } from 'vitest';
import { callOk, unique, wp } from '../../helpers/site.js';
import { walk } from '../../helpers/listing.js';

/**
 * #36: find-posts does what its description says. Without post_type it searches every post
 * type REST shows that holds content (posts, pages, custom types), and no_terms on categories
 * says why it finds nothing (WordPress files such posts under the default category).
 */
const word = () => unique('zq').replace(/\s+/g, '');

async function post(fields: Record<string, unknown>, route = '/wp/v2/posts'): Promise<number> {
  return (await wp().post<{ id: number }>(route, { status: 'publish', ...fields })).id;
}

describe('find-posts without post_type', () => {
  it('a search matching 12 posts, 2 products and a page finds all 15, newest first, paged each once', async () => {
    const w = word();
    const made: number[] = [];
    for (let i = 0; i < 12; i++) made.push(await post({ title: `${w} post ${i}` }));
    made.push(await post({ title: `${w} product a`, status: 'draft' }, '/wp/v2/products'));
    made.push(await post({ title: `${w} page` }, '/wp/v2/pages'));
    made.push(await post({ title: `${w} product b` }, '/wp/v2/products'));
    const page = await callOk('find-posts', { search: w });
    expect(page.total).toBe(15);
    expect(page.items.map((p: { id: number }) => p.id)).toEqual([...made].sort((a, b) => b - a));
    expect(new Set(page.items.map((p: { type: string }) => p.type))).toEqual(new Set(['post', 'product', 'page']));
    // Pages across the types: every item once, in the same order.
    const { items, pages } = await walk('find-posts', { search: w, limit: 4 });
    expect(pages).toHaveLength(4);
    expect(items.map((p) => p.id)).toEqual([...made].sort((a, b) => b - a));
    // post_type still narrows.
    expect((await callOk('find-posts', { search: w, post_type: 'post' })).total).toBe(12);
  });

  it('with a taxonomy: the types it is on (product_cat: products)', async () => {
    const w = word();
    const cat = await wp().post<{ id: number }>('/shop/v1/product-categories', { name: unique('Gloves') });
    const product = await post({ title: `${w} glove`, 'product-categories': [cat.id] }, '/wp/v2/products');
    await post({ title: `${w} post` });
    const page = await callOk('find-posts', { search: w, taxonomy: 'product_cat', term_ids: [cat.id] });
    expect(page.items).toEqual([expect.objectContaining({ id: product, type: 'product' })]);
  });
});

describe('find-posts no_terms on categories', () => {
  it('says that WordPress files such posts under the default category, and how to find them', async () => {
    const w = word();
    const filed = await post({ title: `${w} no category given` });
    const settings = await wp().get<{ default_category: number }>('/wp/v2/settings', { _fields: 'default_category' });
    const back = await wp().get<{ categories: number[] }>(`/wp/v2/posts/${filed}`, { _fields: 'categories' });
    expect(back.categories).toEqual([settings.default_category]);

    const page = await callOk('find-posts', { search: w, taxonomy: 'category', no_terms: true });
    expect(page.total).toBe(0);
    expect(page.note).toContain('default category');
    expect(page.note).toContain(`term_ids: [${settings.default_category}]`);
    // The way it names finds the post.
    const found = await callOk('find-posts', { search: w, taxonomy: 'category', term_ids: [settings.default_category] });
    expect(found.items.map((p: { id: number }) => p.id)).toEqual([filed]);
  });
});
