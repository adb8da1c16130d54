import { type WordPressClient, WordPressError } from '../../client/index.js';
import type { ListSource } from '../answers/page.js';

/**
 * Each found post's author by login beside its id (#60.6: find-posts showed authors as ids), read
 * for a whole page at once: one request for the page's authors (100 a request), not one a post.
 * The edit view gives logins (what `author=` takes back); an account it leaves out (the companion
 * plugin hides accounts stronger than the caller there) is named by its public slug.
 */
export function withAuthorLogins<T extends { author: number }>(
  client: WordPressClient,
  source: ListSource<T>,
): ListSource<T & { author_login?: string }> {
  return {
    key: source.key,
    fetch: async (window) => {
      const page = await source.fetch(window);
      // An account that may not list users (no list_users) still finds posts: ids only.
      const logins = await loginsOf(client, page.items.map((p) => p.author)).catch((err) => {
        if (err instanceof WordPressError && (err.status ?? 500) < 500) return new Map<number, string>();
        throw err;
      });
      return {
        ...page,
        items: page.items.map((p) => (logins.has(p.author) ? { ...p, author_login: logins.get(p.author) } : p)),
      };
    },
  };
}

async function loginsOf(client: WordPressClient, authors: readonly number[]): Promise<Map<number, string>> {
  const ids = [...new Set(authors.filter((id) => id > 0))];
  const logins = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 100) {
    const include = ids.slice(i, i + 100);
    const found = await client.get<Array<{ id: number; username?: string }>>('/wp/v2/users', {
      include,
      per_page: 100,
      context: 'edit',
      _fields: 'id,username',
    });
    for (const u of found) if (u.username) logins.set(u.id, u.username);
    const hidden = include.filter((id) => !logins.has(id));
    if (!hidden.length) continue;
    const shown = await client.get<Array<{ id: number; slug?: string }>>('/wp/v2/users', { include: hidden, per_page: 100, _fields: 'id,slug' });
    for (const u of shown) if (u.slug) logins.set(u.id, u.slug);
  }
  return logins;
}
