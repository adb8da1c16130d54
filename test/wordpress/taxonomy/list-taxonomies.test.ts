import { describe, expect, it } from 'vitest';
import { callOk, wp } from '../../helpers/site.js';

describe('list-taxonomies', () => {
  it('lists core and custom taxonomies; genre is not builtin, category is', async () => {
    const result = await callOk<{ total: number; items: Array<Record<string, any>> }>('list-taxonomies');
    const onSite = await wp().get<Record<string, unknown>>('/wp/v2/taxonomies', { context: 'edit' });
    expect(result.total).toBe(Object.keys(onSite).length);
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
    for (const item of result.items) {
      expect(Object.keys(item).sort()).toEqual([
        'builtin',
        'description',
        'hierarchical',
        'name',
        'rest_base',
        'slug',
        'types',
      ]);
    }
  });
});
