import { decodeEntities, type WordPressClient, WordPressError } from '../client/index.js';
import { type PostTypeRoute, POST_STATUSES, withStatuses } from '../tools/taxonomy/post-types.js';
import type { UndoState } from './types.js';
import { message, type RestoreOptions, type RestoreOutcome, type TrashedPost, writeFailed } from './types.js';

/**
 * Issue #34.7: delete-user with delete_content moves the account's posts and pages to the
 * Trash (wp_delete_user → wp_delete_post → wp_trash_post; other types are deleted for good).
 * The journal keeps them as they were; an undo takes them out of the Trash with their status
 * and slug (wp_trash_post adds `__trashed` to it). The account itself stays deleted.
 */

/** REST's usual statuses; the schema's own list adds the registered ones. */
const LIVE = POST_STATUSES.filter((s) => s !== 'trash');

/** What wp_delete_post moves to the Trash rather than deleting: posts and pages. */
const TRASHED_TYPES: PostTypeRoute[] = [
  { type: 'post', route: '/wp/v2/posts', statuses: LIVE },
  { type: 'page', route: '/wp/v2/pages', statuses: LIVE },
];

/**
 * The user's posts and pages outside the Trash: what a delete with its content trashes. Every
 * status, a registered custom one too (#47.4: wp_trash_post trashes a post in any status, and a
 * list of REST's usual five left those in the Trash after an undo): the statuses each
 * collection's own schema takes (post-types.ts), but the Trash.
 */
export async function readTrashable(client: WordPressClient, author: number): Promise<Record<string, TrashedPost>> {
  const routes = await withStatuses(client, TRASHED_TYPES);
  const lists = await Promise.all(
    routes.map(async ({ route, statuses }) =>
      (
        await client.all<{ id: number; status: string; slug: string; title?: { raw?: string } }>(route, {
          author,
          status: statuses.filter((s) => s !== 'trash'),
          context: 'edit',
          orderby: 'id',
          _fields: 'id,status,slug,title',
        })
      ).map((p) => [String(p.id), { route, status: p.status, slug: p.slug, title: decodeEntities(p.title?.raw ?? '') }]),
    ),
  );
  return Object.fromEntries(lists.flat());
}

/**
 * Each post of `target.trashed` still in the Trash goes back to its status and slug. One
 * already out of the Trash with that status is skipped; one emptied from the Trash, or taken
 * out with another status, is a conflict (force sets the status anyway where it still exists).
 */
export async function restoreTrashed(
  client: WordPressClient,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  for (const [key, want] of Object.entries(target.trashed ?? {})) {
    const item = `post ${key}${want.title ? ` '${want.title}'` : ''}`;
    let now: { status: string } | undefined;
    try {
      now = await client.get<{ status: string }>(`${want.route}/${key}`, { context: 'edit', _fields: 'id,status' });
    } catch (err) {
      if (!(err instanceof WordPressError && err.status === 404)) {
        writeFailed(out, item, `could not be read: ${message(err)}`);
        continue;
      }
    }
    if (!now) {
      out.conflicts.push({ item, reason: 'deleted for good since (the Trash was emptied)' });
      continue;
    }
    if (now.status === want.status) {
      out.skipped.push(item);
      continue;
    }
    if (now.status !== 'trash' && !options.force) {
      out.conflicts.push({ item, reason: `taken out of the Trash since (now ${now.status})` });
      continue;
    }
    if (options.dryRun) {
      out.restored.push(`${item} (out of the Trash, ${want.status})`);
      out.untrashed = [...(out.untrashed ?? []), key];
      continue;
    }
    try {
      await client.post(`${want.route}/${key}`, { status: want.status, slug: want.slug }, { _fields: 'id' });
      out.restored.push(`${item} (out of the Trash, ${want.status})`);
      out.untrashed = [...(out.untrashed ?? []), key];
    } catch (err) {
      writeFailed(out, item, `could not be taken out of the Trash: ${message(err)}`);
    }
  }
}
