import { describe, expect, it } from 'vitest';
import { call, callOk, unique, wp } from '../../helpers/site.js';
import { walk } from '../../helpers/listing.js';
import { makePosts, makeTag } from './fixtures.js';

/** find-posts against the real site; fixtures made through wp(), never through the tools. */
const word = () => unique('zq').replace(/\s+/g, '');
const ids = (page: { items: Array<{ id: number }> }) => page.items.map((p) => p.id);

async function post(fields: Record<string, unknown>, route = '/wp/v2/posts'): Promise<number> {
  return (await wp().post<{ id: number }>(route, { status: 'publish', ...fields })).id;
}

describe('find-posts', () => {
  it('finds one post by its exact title in one call', async () => {
    const title = `${unique('Quarterly report')} final`;
    const id = await post({ title });
    const page = await callOk('find-posts', { search: title });
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({ id, title, type: 'post', status: 'publish' });
    expect(Object.keys(page.items[0]).sort()).toEqual(['author', 'author_login', 'date', 'id', 'status', 'title', 'type']);
  });

  it('combines search, status, author, taxonomy + term_ids and dates', async () => {
    const w = word();
    const tag = await makeTag('Find');
    const me = (await wp().get<{ id: number }>('/wp/v2/users/me')).id;
    const wanted = await post({ title: `${w} a`, status: 'draft', tags: [tag.id], date: '2024-06-01T10:00:00' });
    await post({ title: `${w} b`, status: 'publish', tags: [tag.id], date: '2024-06-01T10:00:00' }); // other status
    await post({ title: `${w} c`, status: 'draft', date: '2024-06-01T10:00:00' }); // no tag
    await post({ title: `${w} d`, status: 'draft', tags: [tag.id], date: '2023-01-01T10:00:00' }); // too early
    const page = await callOk('find-posts', {
      search: w,
      status: 'draft',
      author: me,
      taxonomy: 'post_tag',
      term_ids: [tag.id],
      after: '2024-01-01',
      before: '2025-01-01T00:00:00Z',
    });
    expect(ids(page)).toEqual([wanted]);
  });

  it('trash only when asked for', async () => {
    const w = word();
    const [kept, trashed] = [await post({ title: `${w} kept` }), await post({ title: `${w} trashed` })];
    await wp().delete(`/wp/v2/posts/${trashed}`);
    expect(ids(await callOk('find-posts', { search: w }))).toEqual([kept]);
    expect(ids(await callOk('find-posts', { search: w, status: 'any' }))).toEqual([trashed, kept]);
    expect(ids(await callOk('find-posts', { search: w, status: 'trash' }))).toEqual([trashed]);
  });

  it('products by product_cat (REST base differs from its slug), any status', async () => {
    const w = word();
    const cat = await wp().post<{ id: number }>('/shop/v1/product-categories', { name: unique('Hats') });
    const route = '/wp/v2/products';
    const inCat = await post({ title: `${w} cap`, status: 'draft', 'product-categories': [cat.id] }, route);
    await post({ title: `${w} scarf` }, route);
    const page = await callOk('find-posts', { post_type: 'product', taxonomy: 'product_cat', term_ids: [cat.id], search: w });
    expect(page.items).toEqual([expect.objectContaining({ id: inCat, type: 'product', status: 'draft' })]);
  });

  it('no_terms: posts without any term of the taxonomy (genre)', async () => {
    const w = word();
    const genre = await wp().post<{ id: number }>('/wp/v2/genres', { name: unique('Opera') });
    await post({ title: `${w} with`, genres: [genre.id] });
    const without = await post({ title: `${w} without`, status: 'private' });
    expect(ids(await callOk('find-posts', { search: w, taxonomy: 'genre', no_terms: true }))).toEqual([without]);
  });

  it('pages newest first with a cursor, each post once', async () => {
    const w = word();
    const made = await makePosts([{}, {}, {}, {}, {}]);
    await Promise.all(made.map((id, i) => wp().post(`/wp/v2/posts/${id}`, { title: `${w} ${i}` })));
    const { items, pages } = await walk('find-posts', { search: w, limit: 2 });
    expect(pages).toHaveLength(3);
    expect(items.map((p) => p.id)).toEqual([...made].sort((a, b) => b - a));
  });

  it('clear errors: unknown type or taxonomy, a taxonomy not on the type, ids of another taxonomy', async () => {
    const tag = await makeTag('Wrong tax');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ post_type: 'no_such_type' }, 'post_type_not_found'],
      [{ taxonomy: 'no_such_tax', term_ids: [1] }, 'taxonomy_not_found'],
      [{ taxonomy: 'sandbox_private', no_terms: true }, 'taxonomy_not_found'],
      [{ post_type: 'post', taxonomy: 'product_cat', term_ids: [1] }, 'taxonomy_not_on_type'],
      [{ taxonomy: 'genre', term_ids: [tag.id] }, 'term_not_found'],
      [{ term_ids: [tag.id] }, 'taxonomy_required'],
      [{ after: 'last tuesday' }, 'invalid_date'],
    ];
    for (const [params, code] of cases) {
      expect(await call('find-posts', params), JSON.stringify(params)).toMatchObject({ ok: false, error: { code } });
    }
  });
});
