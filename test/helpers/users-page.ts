import { expect } from 'vitest';
import { wp } from './site.js';

/**
 * A first page of list-users (limit up to 100) against the site read directly: the same window
 * of the same order (by id, as list-users pages), its total the site's, and a next_cursor exactly
 * when accounts are left. The page may stop before `limit` to stay within the answer budget, and
 * the site may hold over 100 accounts (files before this one on the worker's site add some), so
 * a comparison with "the site's first 100 by name" would compare different windows.
 */
export async function expectFirstUsersPage(page: {
  total: number;
  items: Array<{ id: number; username: string }>;
  next_cursor: string | null;
}): Promise<void> {
  const [total, site] = await Promise.all([
    wp().count('/wp/v2/users', { context: 'edit' }),
    wp().get<Array<{ id: number; username: string }>>('/wp/v2/users', {
      context: 'edit',
      orderby: 'id',
      order: 'asc',
      per_page: 100,
      _fields: 'id,username',
    }),
  ]);
  expect(page.total).toBe(total);
  expect(page.items.length).toBeGreaterThan(0);
  expect(page.items.map((u) => `${u.id} ${u.username}`)).toEqual(
    site.slice(0, page.items.length).map((u) => `${u.id} ${u.username}`),
  );
  expect(page.next_cursor === null).toBe(page.items.length === total);
}
