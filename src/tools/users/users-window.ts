import type { WordPressClient } from '../../client/index.js';

const USERS = '/wp/v2/users';

/** A position of the window: the account's id, name and slug, and its edit-context record when the caller may edit it. */
export interface WindowAccount<T> {
  id: number;
  name: string;
  slug: string;
  editable?: T;
}

/**
 * A window of `/wp/v2/users` by id, every account in its place. WordPress's edit-context listing
 * leaves out, without a word, each account the caller may not edit (WP_REST_Users_Controller::
 * get_items, `edit_user`: a site administrator of a network may edit only his own; the companion
 * plugin keeps an account from editing a stronger one), so its pages come short and positions
 * shift. Then the view context places every account of the window and the edit context, asked
 * by id, gives those the caller may edit: 1 request a window as a rule, 3 or more when short.
 */
export async function usersWindow<T extends { id?: unknown }>(
  client: WordPressClient,
  editQuery: Record<string, string | undefined>,
  window: { offset: number; count: number; knownTotal?: number },
): Promise<{ items: Array<WindowAccount<T>>; total: number }> {
  const query = { ...editQuery, context: 'edit', orderby: 'id', order: 'asc' };
  const edit = await client.window<T>(USERS, query, window);
  if (edit.items.length >= Math.min(window.count, edit.total - window.offset)) {
    return { items: edit.items.map((raw) => ({ id: Number(raw.id), name: '', slug: '', editable: raw })), total: edit.total };
  }
  const seen = await client.window<{ id: number; name?: string; slug?: string }>(USERS, { ...query, context: 'view', _fields: 'id,name,slug' }, window);
  const ids = seen.items.map((u) => Number(u.id));
  const byId = new Map<number, T>();
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    for (const raw of await client.get<T[]>(USERS, { ...query, include: chunk.join(','), per_page: chunk.length })) byId.set(Number(raw.id), raw);
  }
  return {
    items: seen.items.map((u) => ({ id: Number(u.id), name: u.name ?? '', slug: u.slug ?? '', editable: byId.get(Number(u.id)) })),
    total: seen.total,
  };
}
