import { describe, expect, it } from 'vitest';
import { callOk, unique, wp } from '../../helpers/site.js';

describe('get-cms-tags', () => {
  it('returns every tag across pages, as compact records with decoded names', async () => {
    const existing = await wp().count('/wp/v2/tags', { hide_empty: false });
    const prefix = unique('Paged & tag');
    await wp().batch(
      Array.from({ length: Math.max(1, 130 - existing) }, (_, i) => ({
        path: '/wp/v2/tags',
        body: { name: `${prefix} ${i}` },
      })),
    );

    const result = await callOk<{ total: number; items: Array<Record<string, unknown>> }>('get-cms-tags');

    const total = await wp().count('/wp/v2/tags', { hide_empty: false });
    expect(total).toBeGreaterThan(100);
    expect(result.total).toBe(total);
    expect(new Set(result.items.map((t) => t.id)).size).toBe(total);
    for (const item of result.items)
      expect(Object.keys(item).sort()).toEqual(['count', 'description', 'id', 'name', 'slug']);
    expect(result.items.find((t) => t.name === `${prefix} 0`)).toBeDefined();
  });
});
