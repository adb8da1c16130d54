import { decodeEntities, type WordPressClient, WordPressError } from '../client/index.js';
import type { UndoState } from './types.js';
import { message, type RestoreOptions, type RestoreOutcome, type TrashedPost, writeFailed } from './types.js';

/**
 * Issue #34.7: delete-user with delete_content moves the account's posts and pages to the
 * Trash (wp_delete_user → wp_delete_post → wp_trash_post; other types are deleted for good).
 * The journal keeps them as they were; an undo takes them out of the Trash with their status
 * and slug (wp_trash_post adds `__trashed` to it). The account itself stays deleted.
 */

/** What wp_delete_post moves to the Trash rather than deleting: posts and pages. */
const TRASHED_TYPES = ['/wp/v2/posts', '/wp/v2/pages'];
/** Every status REST lists (a custom status is not listed: docs/undo.md says so). */
const LIVE = ['publish', 'future', 'draft', 'pending', 'private'];

/** The user's posts and pages outside the Trash: what a delete with its content trashes. */
export async function readTrashable(client: WordPressClient, author: number): Promise<Record<string, TrashedPost>> {
  const lists = await Promise.all(
    TRASHED_TYPES.map(async (route) =>
      (
        await client.all<{ id: number; status: string; slug: string; title?: { raw?: string } }>(route, {
          author,
          status: LIVE,
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
