import { beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { call, callOk, testSite, unique, wp } from '../../helpers/site.js';
import { ascending, expectCursorErrors, idsOnce, type Page, walk } from '../../helpers/listing.js';

const allTagIds = async () =>
  (await wp().all<{ id: number }>('/wp/v2/tags', { hide_empty: false, _fields: 'id', orderby: 'id' })).map((t) => t.id);

describe('get-cms-tags', () => {
  let prefix: string;
  // Several pages of 100: the walk must cross page boundaries. At least "… 0" to "… 9" are made
  // here whatever earlier files left: the tests below look for "… 0" and "… 7".
  beforeAll(async () => {
    const existing = await wp().count('/wp/v2/tags', { hide_empty: false });
    prefix = unique('Paged & tag');
    await wp().batch(
      Array.from({ length: Math.max(10, 260 - existing) }, (_, i) => ({
        path: '/wp/v2/tags',
        body: { name: `${prefix} ${i}`, description: `About ${i}` },
      })),
    );
  }, 120_000);

  it('pages by id: following next_cursor yields every tag once, equal to the site’s set', async () => {
    const site = await allTagIds();
    expect(site.length).toBeGreaterThan(200);
    const { items, pages, largest } = await walk<Record<string, unknown>>('get-cms-tags');
    const ids = idsOnce(items as Array<{ id: number }>);
    expect(ids).toEqual(ascending(ids));
    expect(ids).toEqual(ascending(site));
    expect(pages.length).toBeGreaterThan(1);
    expect(largest).toBeLessThanOrEqual(16_000);
    for (const page of pages) expect(page.total).toBe(site.length);
    const first = pages[0] as Page;
    expect(first.more).toMatch(/^\d+ more: pass cursor=next_cursor, or narrow with search\.$/);
    expect(pages.at(-1)?.next_cursor).toBeNull();
    expect(pages.at(-1)?.more).toBeUndefined();
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['count', 'id', 'name', 'slug']);
    expect(items.find((t) => t.name === `${prefix} 0`)).toBeDefined();
  });

  it('full adds the description under the same field names', async () => {
    // "… 7" also matches "… 70" to "… 79"; batches run concurrently, so ids are not in name order.
    const page = await callOk<Page>('get-cms-tags', { search: `${prefix} 7`, full: true });
    const item = page.items.find((t) => t.name === `${prefix} 7`);
    expect(item).toMatchObject({ description: 'About 7' });
    expect(Object.keys(item ?? {}).sort()).toEqual(['count', 'description', 'id', 'name', 'slug']);
  });

  it('searches names and slugs; no match is an empty list', async () => {
    const name = unique('Zyxwvut tag');
    const made = await wp().post<{ id: number; slug: string }>('/wp/v2/tags', { name, slug: `${name.replace(/\W+/g, '-')}-qqslug` });
    const byName = await callOk<Page>('get-cms-tags', { search: name });
    expect(byName).toMatchObject({ total: 1, next_cursor: null, items: [{ id: made.id, name }] });
    const bySlug = await callOk<Page>('get-cms-tags', { search: 'qqslug' });
    expect(bySlug.items.map((t) => t.id)).toEqual([made.id]);
    expect(await callOk('get-cms-tags', { search: 'no-such-tag-anywhere-42' })).toEqual({
      total: 0,
      items: [],
      next_cursor: null,
    });
  });

  it('refuses malformed, foreign and other-filter cursors, and limits outside 1–500', async () => {
    await expectCursorErrors('get-cms-tags', 'get-cms-categories', { search: 'a' });
  });

  it('refuses a cursor after tags before it were deleted, instead of skipping one', async () => {
    const extra = await wp().post<{ id: number }>('/wp/v2/tags', { name: unique('Doomed tag') });
    const first = await callOk<Page>('get-cms-tags', { limit: 3 });
    const shown = first.items[0] as { id: number };
    await wp().delete(`/wp/v2/tags/${shown.id}`, { force: true });
    const outcome = await call('get-cms-tags', { limit: 3, cursor: first.next_cursor });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatchObject({ code: 'invalid_cursor', message: expect.stringContaining('changed') });
    await wp().delete(`/wp/v2/tags/${extra.id}`, { force: true });
  });

  it('fits a smaller answer budget with fewer items per page, still complete', async () => {
    const context = createContext(testSite(), { answerBudget: 3_000 });
    const { items, largest } = await walk('get-cms-tags', { limit: 500 }, context);
    expect(largest).toBeLessThanOrEqual(3_000);
    expect(idsOnce(items as Array<{ id: number }>)).toEqual(ascending(await allTagIds()));
  });
});
