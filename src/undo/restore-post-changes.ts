import type { WordPressClient } from '../client/index.js';
import type { TaxonomyRef, UndoState } from './state.js';
import type { PostTermChange, RestoreOptions, RestoreOutcome } from './types.js';
import { addToGroup, type PostGroups, writePostGroups } from './write-post-groups.js';

/**
 * Issue #34.4: a call's own change to posts' terms, as a delta. Twenty writers at once each
 * read whole lists holding the others' changes; an undo that put those lists back took the
 * others' changes too, or called them "changed since". The journal keeps, per post, only what
 * the call added and removed among the terms it works with (`relevant`), and an undo reverses
 * exactly that, so undoing every writer in any order gives the lists from before them all.
 */
export function postChangesOf(
  before: UndoState,
  after: UndoState,
  relevant: readonly number[],
): Record<string, PostTermChange> {
  const mine = new Set(relevant);
  const out: Record<string, PostTermChange> = {};
  for (const [id, had] of Object.entries(before.posts ?? {})) {
    const has = after.posts?.[id];
    // A post gone after the call (deleted meanwhile): nothing of it to give back.
    if (!has) continue;
    const added = has.filter((t) => mine.has(t) && !had.includes(t));
    const removed = had.filter((t) => mine.has(t) && !has.includes(t));
    if (added.length || removed.length) out[id] = { added, removed };
  }
  return out;
}

/** The inverse of each post's change: what an undo writes (ids already in today's ids). */
export function inverse(change: PostTermChange, idMap: Record<string, number>): PostTermChange {
  return { added: change.removed.map((t) => idMap[t] ?? t), removed: change.added.map((t) => idMap[t] ?? t) };
}

/**
 * Reverses each post's change: removes what the call added if it is still there, gives back
 * what it removed if it is not there. What other writers did to a post stays; nothing is a
 * conflict except a post that is gone or a term that could not be recreated. A post already
 * reversed is skipped, so a rerun after a fault does only what is left.
 */
export async function restorePostChanges(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  changes: Record<string, PostTermChange>,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const groups: PostGroups = new Map();
  // A removed term to recreate that could not be (a conflict of its own): not given back.
  const unmade = (t: number) =>
    !options.dryRun && !(t in out.idMap) && Boolean(target.terms?.[t]) && !out.current.terms?.[t];
  const written: Record<string, PostTermChange> = {};
  out.postChanges = written;
  for (const [key, change] of Object.entries(changes)) {
    const id = Number(key);
    const item = `post ${id}`;
    const now = out.current.posts?.[key];
    if (now === undefined) {
      out.conflicts.push({ item, reason: 'no longer exists (or cannot be read)' });
      continue;
    }
    // A term to give back that could not be recreated: the post is left as it is (taking the
    // added term off alone could leave it with none); a rerun does it once the term is back.
    const blocked = change.removed.filter(unmade);
    if (blocked.length) {
      out.conflicts.push({
        item,
        reason: `${taxonomy.noun} ${blocked.join(', ')} could not be restored, so its terms were left`,
      });
      continue;
    }
    const back = inverse(change, out.idMap);
    const write = {
      add: back.added.filter((t) => !now.includes(t)),
      remove: back.removed.filter((t) => now.includes(t)),
    };
    if (!write.add.length && !write.remove.length) {
      out.skipped.push(item);
      continue;
    }
    addToGroup(groups, write, id);
  }
  // What the undo did to each post, as the undo's own entry keeps it (undoing the undo redoes it).
  await writePostGroups(client, taxonomy, groups, options, out, (id, change) => {
    written[String(id)] = { added: change.add, removed: change.remove };
  });
}
