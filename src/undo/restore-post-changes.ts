import { type WordPressClient, WordPressError } from '../client/index.js';
import { changePostTerms } from '../tools/taxonomy/change-post-terms.js';
import { hasCompanion } from '../tools/companion.js';
import { withPostTermsLock } from '../tools/taxonomy/post-lock.js';
import { withSiteLock } from '../tools/taxonomy/site-lock.js';
import { ToolError } from '../tools/tool-error.js';
import type { TaxonomyRef, UndoState } from './state.js';
import { message, type PostTermChange, type RestoreOptions, type RestoreOutcome, put, writeFailed } from './types.js';

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
  const groups = new Map<string, number[]>();
  // A removed term to recreate that could not be (a conflict of its own): not given back.
  const unmade = (t: number) =>
    !options.dryRun && !(t in out.idMap) && Boolean(target.terms?.[t]) && !out.current.terms?.[t];
  out.postChanges = {};
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
    const group = JSON.stringify(write);
    groups.set(group, [...(groups.get(group) ?? []), id]);
  }
  if (options.dryRun) {
    for (const [group, postIds] of groups) {
      const write = JSON.parse(group) as { add: number[]; remove: number[] };
      // The plan the undo's question is built from (tools/changes/undo-review.ts): each post's terms after.
      for (const id of postIds) {
        const now = out.current.posts?.[String(id)] ?? [];
        put(out.result, 'posts', id, [...now.filter((t) => !write.remove.includes(t)), ...write.add].sort((a, b) => a - b));
      }
      out.restored.push(...postIds.map((id) => `post ${id}`));
    }
    return;
  }
  const done = new Set<number>();
  const run = async () => {
    for (const [group, postIds] of groups) {
      const write = JSON.parse(group) as { add: number[]; remove: number[] };
      const report = await changePostTerms(client, taxonomy, postIds, write);
      for (const id of [...report.updated, ...report.unchanged]) {
        const now = out.current.posts?.[String(id)] ?? [];
        const terms = [...now.filter((t) => !write.remove.includes(t)), ...write.add].sort((a, b) => a - b);
        put(out.result, 'posts', id, terms);
        out.postChanges![String(id)] = { added: write.add, removed: write.remove };
        out.restored.push(`post ${id}`);
      }
      for (const failed of report.failed)
        writeFailed(out, `post ${failed.post_id}`, `could not be restored: ${failed.error.message}`);
      for (const id of postIds) done.add(id);
    }
  };
  // As restorePosts: the core path holds the site lock once for every group; a call that fails
  // here leaves its posts failures of this undo (incomplete, run it again).
  try {
    await withPostTermsLock(client, async () =>
      (await hasCompanion(client, 'post-terms')) ? run() : withSiteLock(client, run),
    );
  } catch (err) {
    if (!(err instanceof ToolError || err instanceof WordPressError)) throw err;
    const why = `could not be restored (${err.code}): ${message(err)}`;
    for (const postIds of groups.values())
      for (const id of postIds) if (!done.has(id)) writeFailed(out, `post ${id}`, why);
  }
}
