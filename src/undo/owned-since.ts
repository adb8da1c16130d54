import type { WordPressClient } from '../client/index.js';
import { hasCompanion } from '../tools/companion.js';
import { readUserCaps } from '../tools/users/role-routes.js';
import { loadUserContent } from '../tools/users/user-content.js';

/**
 * What an account a change created has gained since, read through REST one account at a time
 * (the path without the companion plugin's bulk delete, 0.7.0): posts of every type and status
 * (the plugin counts them all, and links), comments, application passwords and, with the plugin's
 * roles routes (0.6.0), capabilities of its own (#59.8). An undo keeps such an account and names
 * what it has; deleting it would delete or orphan what someone made with it.
 */
export async function ownedSince(client: WordPressClient, id: number): Promise<string[]> {
  const [posts, comments, passwords, own] = await Promise.all([
    postsOf(client, id),
    client.count('/wp/v2/comments', { author: id, status: 'all', context: 'edit' }),
    client.get<unknown[]>(`/wp/v2/users/${id}/application-passwords`).then((list) => list.length),
    hasCompanion(client, 'roles/edit').then(async (has) => (has ? Object.keys((await readUserCaps(client, id))?.capabilities ?? {}) : [])),
  ]);
  return [
    posts && `${posts} post(s)`,
    comments && `${comments} comment(s)`,
    passwords && `${passwords} application password(s)`,
    own.length && `capabilities of its own (${own.slice(0, 5).join(', ')})`,
  ].filter((s): s is string => typeof s === 'string');
}

/** Items of every type and status the user authored (the companion plugin counts them all). */
async function postsOf(client: WordPressClient, id: number): Promise<number> {
  if (await hasCompanion(client, 'users/content').catch(() => false)) {
    const content = await loadUserContent(client, id);
    return content.types.reduce((n, t) => n + t.total, 0) + content.links;
  }
  return client.count('/wp/v2/posts', {
    author: id,
    status: ['publish', 'future', 'draft', 'pending', 'private'],
    context: 'edit',
  });
}
