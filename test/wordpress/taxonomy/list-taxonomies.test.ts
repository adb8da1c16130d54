import { describe, expect, it } from 'vitest';
import { callOk, wp } from '../../helpers/site.js';
import { type Page, walk } from '../../helpers/listing.js';

describe('list-taxonomies', () => {
  it('lists core and custom taxonomies; genre is not builtin, category is', async () => {
    const result = await callOk<Page>('list-taxonomies', { full: true });
    const onSite = await wp().get<Record<string, unknown>>('/wp/v2/taxonomies', { context: 'edit' });
    expect(result.total).toBe(Object.keys(onSite).length);
    expect(result.next_cursor).toBeNull();
    const bySlug = new Map(result.items.map((t) => [t.slug, t]));
    expect(bySlug.get('genre')).toEqual({
      slug: 'genre',
      name: 'Genres',
      description: '',
      hierarchical: false,
      rest_base: 'genres',
      types: ['post'],
      builtin: false,
    });
    expect(bySlug.get('category')).toMatchObject({
      hierarchical: true,
      rest_base: 'categories',
      builtin: true,
      types: ['post'],
    });
    expect(bySlug.get('post_tag')).toMatchObject({ hierarchical: false, rest_base: 'tags', builtin: true });
    // Every taxonomy but the sandbox's own `genre` and `product_cat` is core's, whichever WordPress version runs.
    for (const item of result.items) expect(item.builtin, item.slug).toBe(!['genre', 'product_cat'].includes(item.slug));
    expect(bySlug.get('product_cat')).toMatchObject({ hierarchical: true, rest_base: 'product-categories' });
  });

  it('is concise by default, searchable, and pages by slug', async () => {
    const concise = await callOk<Page>('list-taxonomies');
    for (const item of concise.items)
      expect(Object.keys(item).sort()).toEqual(['builtin', 'hierarchical', 'name', 'rest_base', 'slug']);
    expect((await callOk<Page>('list-taxonomies', { search: 'GENR' })).items.map((t) => t.slug)).toEqual(['genre']);
    expect(await callOk('list-taxonomies', { search: 'nothing-like-this' })).toEqual({ total: 0, items: [], next_cursor: null });
    const { items, pages } = await walk('list-taxonomies', { limit: 2 });
    expect(pages.length).toBeGreaterThan(1);
    expect(items.map((t) => t.slug)).toEqual(concise.items.map((t) => t.slug));
    expect(new Set(items.map((t) => t.slug)).size).toBe(concise.total);
  });
});
