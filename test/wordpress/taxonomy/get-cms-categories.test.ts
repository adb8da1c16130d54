import { beforeAll, describe, expect, it } from 'vitest';
import { callOk, unique, wp } from '../../helpers/site.js';
import { ascending, expectCursorErrors, idsOnce, type Page, walk } from '../../helpers/listing.js';

interface Raw {
  id: number;
  parent: number;
  count: number;
}
const allCategories = () =>
  wp().all<Raw>('/wp/v2/categories', { hide_empty: false, _fields: 'id,parent,count', orderby: 'id' });

describe('get-cms-categories', () => {
  let parentId: number;
  beforeAll(async () => {
    // More than one page of 100, some of them children of one parent.
    const existing = await wp().count('/wp/v2/categories', { hide_empty: false });
    const prefix = unique('Paged');
    parentId = (await wp().post<{ id: number }>('/wp/v2/categories', { name: `${prefix} parent` })).id;
    await wp().batch(
      Array.from({ length: Math.max(3, 130 - existing) }, (_, i) => ({
        path: '/wp/v2/categories',
        body: { name: `${prefix} ${i}`, ...(i < 3 ? { parent: parentId } : {}) },
      })),
    );
  }, 120_000);

  it('following next_cursor yields every category once, in id order, equal to the site’s set', async () => {
    const site = await allCategories();
    expect(site.length).toBeGreaterThan(100);
    const { items, pages, largest } = await walk('get-cms-categories', { limit: 40 });
    expect(pages.length).toBeGreaterThan(2);
    const ids = idsOnce(items as Array<{ id: number }>);
    expect(ids).toEqual(ascending(site.map((c) => c.id)));
    expect(largest).toBeLessThanOrEqual(16_000);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['count', 'id', 'name', 'parent', 'slug']);
    expect(items.find((c) => c.id === 1)).toMatchObject({ name: 'Uncategorized', parent: 0 });
  });

  it('the first answer without params stays within 16,000 characters and says how many more', async () => {
    const page = await callOk<Page>('get-cms-categories');
    expect(JSON.stringify(page).length).toBeLessThanOrEqual(16_000);
    expect(page.total).toBe((await allCategories()).length);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.more).toMatch(/more: pass cursor=next_cursor, or narrow with search or parent/);
  });

  it('filters by parent and hide_empty as WordPress does', async () => {
    const site = await allCategories();
    const children = await callOk<Page>('get-cms-categories', { parent: parentId });
    expect(children.items.map((c) => c.id)).toEqual(site.filter((c) => c.parent === parentId).map((c) => c.id));
    expect(children.total).toBe(3);
    const topLevel = await walk('get-cms-categories', { parent: 0 });
    expect(idsOnce(topLevel.items as Array<{ id: number }>)).toEqual(site.filter((c) => c.parent === 0).map((c) => c.id));
    // WordPress keeps an empty parent whose descendants have posts (WP_Term_Query's `hierarchical`).
    const used = await walk('get-cms-categories', { hide_empty: true, limit: 7 });
    const nonEmpty = await wp().all<Raw>('/wp/v2/categories', { hide_empty: true, _fields: 'id', orderby: 'id' });
    expect(idsOnce(used.items as Array<{ id: number }>)).toEqual(nonEmpty.map((c) => c.id));
    expect(used.items.length).toBeLessThan(site.length);
  });

  it('searches by name and slug', async () => {
    const name = unique('Quokka section');
    const made = await wp().post<{ id: number }>('/wp/v2/categories', { name, slug: 'wombat-slug-only' });
    expect((await callOk<Page>('get-cms-categories', { search: 'quokka section' })).items.map((c) => c.id)).toContain(made.id);
    expect((await callOk<Page>('get-cms-categories', { search: 'wombat-slug' })).items.map((c) => c.id)).toEqual([made.id]);
    await wp().delete(`/wp/v2/categories/${made.id}`, { force: true });
  });

  it('refuses malformed, foreign and other-filter cursors, and limits outside 1–500', async () => {
    await expectCursorErrors('get-cms-categories', 'get-cms-tags', { parent: 0 });
  });
});
