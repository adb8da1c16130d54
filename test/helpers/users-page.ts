import { expect } from 'vitest';
import { wp } from './site.js';

/**
 * A first page of list-users (limit up to 100) against the site read directly: the same window
 * of the same order (by id, as list-users pages), its total the site's, and a next_cursor exactly
 * when accounts are left. The page may stop before `limit` to stay within the answer budget, and
 * the site may hold over 100 accounts (files before this one on the worker's site add some), so
 * a comparison with "the site's first 100 by name" would compare different windows.
 *
 * The oracle is every account (the view context): the edit context leaves out, silently, those the
 * signed-in account may not edit (a stronger one, one left holding a removed role), which
 * list-users lists with `may_edit: false` and no username. Those it can edit carry their username.
 */
export async function expectFirstUsersPage(page: {
  total: number;
  items: Array<{ id: number; username?: string; may_edit?: false }>;
  next_cursor: string | null;
}): Promise<void> {
  const query = { orderby: 'id', order: 'asc', per_page: 100 };
  const [total, site, editable] = await Promise.all([
    wp().count('/wp/v2/users', { context: 'view' }),
    wp().get<Array<{ id: number }>>('/wp/v2/users', { ...query, context: 'view', _fields: 'id' }),
    wp().get<Array<{ id: number; username: string }>>('/wp/v2/users', { ...query, context: 'edit', _fields: 'id,username' }),
  ]);
  const usernames = new Map(editable.map((u) => [u.id, u.username]));
  const shown = (u: { id: number; username?: string }) => `${u.id} ${usernames.has(u.id) ? u.username : '(may not edit)'}`;
  expect(page.total).toBe(total);
  expect(page.items.length).toBeGreaterThan(0);
  expect(page.items.map(shown)).toEqual(site.slice(0, page.items.length).map((u) => `${u.id} ${usernames.get(u.id) ?? '(may not edit)'}`));
  for (const u of page.items) expect(u.may_edit === false, `${u.id}`).toBe(!usernames.has(u.id));
  expect(page.next_cursor === null).toBe(page.items.length === total);
}
