import { describe, expect, it } from 'vitest';
import { callOk, unique, wp } from '../../helpers/site.js';

describe('get-cms-categories', () => {
  it('returns every category across pages, as compact records', async () => {
    // More than one page of 100: the seeded site has ≥30; add enough to pass 100.
    const existing = await wp().count('/wp/v2/categories', { hide_empty: false });
    const needed = Math.max(0, 130 - existing);
    const prefix = unique('Paged');
    await wp().batch(
      Array.from({ length: needed }, (_, i) => ({ path: '/wp/v2/categories', body: { name: `${prefix} ${i}` } })),
    );

    const result = await callOk<{ total: number; items: Array<Record<string, unknown>> }>('get-cms-categories');

    const total = await wp().count('/wp/v2/categories', { hide_empty: false });
    expect(total).toBeGreaterThan(100);
    expect(result.total).toBe(total);
    expect(result.items).toHaveLength(total);
    expect(new Set(result.items.map((c) => c.id)).size).toBe(total);
    for (const item of result.items) {
      expect(Object.keys(item).sort()).toEqual(['count', 'description', 'id', 'name', 'parent', 'slug']);
    }
    const uncategorized = result.items.find((c) => c.id === 1);
    expect(uncategorized).toMatchObject({ name: 'Uncategorized', parent: 0 });
  });
});
