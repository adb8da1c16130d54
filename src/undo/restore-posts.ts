import { type WordPressClient, WordPressError } from '../client/index.js';
import { changePostTerms } from '../tools/taxonomy/change-post-terms.js';
import { hasCompanion } from '../tools/companion.js';
import { withPostTermsLock } from '../tools/taxonomy/post-lock.js';
import { withSiteLock } from '../tools/taxonomy/site-lock.js';
import { ToolError } from '../tools/tool-error.js';
import { message, type RestoreOptions, type RestoreOutcome, put, writeFailed } from './types.js';
import { sameList, type TaxonomyRef, type UndoState } from './state.js';

/**
 * Gives each post the change touched exactly the terms it had in the taxonomy (recreated terms
 * by their new ids). A post whose terms changed since (re-categorised by someone else) is a
 * conflict, left as it is unless force. Posts needing the same change go together through the bulk path (the companion plugin's
 * route, 250 posts a request; `/batch/v1` otherwise), so a thousand posts take a few requests.
 */
export async function restorePosts(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const groups = new Map<string, number[]>();
  // Terms to recreate that could not be (a conflict): posts needing them are left as they are.
  const unmade = (t: number) =>
    !options.dryRun && !(t in out.idMap) && Boolean(target.terms?.[t]) && !out.current.terms?.[t];
  for (const [key, had] of Object.entries(target.posts ?? {})) {
    const id = Number(key);
    const item = `post ${id}`;
    const now = out.current.posts?.[key];
    const left = expected.posts?.[key];
    if (left && sameList(left, had)) continue; // not changed by this change
    const want = had.map((t) => out.idMap[t] ?? t).sort((a, b) => a - b);
    const blocked = had.filter(unmade);
    if (now === undefined) out.conflicts.push({ item, reason: 'no longer exists (or cannot be read)' });
    else if (sameList(now, want)) out.skipped.push(item);
    else if (!options.force && !sameList(now, left))
      out.conflicts.push({
        item,
        reason: `its ${taxonomy.noun} terms changed since (now ${now.join(', ') || 'none'})`,
      });
    else if (blocked.length)
      out.conflicts.push({
        item,
        reason: `${taxonomy.noun} ${blocked.join(', ')} could not be restored, so its terms were left`,
      });
    else {
      const change = { add: want.filter((t) => !now.includes(t)), remove: now.filter((t) => !want.includes(t)) };
      const group = JSON.stringify(change);
      groups.set(group, [...(groups.get(group) ?? []), id]);
    }
  }
  if (options.dryRun) {
    for (const [group, postIds] of groups) {
      const change = JSON.parse(group) as { add: number[]; remove: number[] };
      // The plan the undo's question is built from (tools/changes/undo-review.ts): each post's terms after.
      for (const id of postIds) {
        const now = out.current.posts?.[String(id)] ?? [];
        put(out.result, 'posts', id, [...now.filter((t) => !change.remove.includes(t)), ...change.add].sort((a, b) => a - b));
      }
      out.restored.push(...postIds.map((id) => `post ${id}`));
    }
    return;
  }
  const done = new Set<number>();
  const write = async () => {
    for (const [group, postIds] of groups) {
      const change = JSON.parse(group) as { add: number[]; remove: number[] };
      const report = await changePostTerms(client, taxonomy, postIds, change);
      for (const id of [...report.updated, ...report.unchanged]) {
        const now = out.current.posts?.[String(id)] ?? [];
        const terms = [...now.filter((t) => !change.remove.includes(t)), ...change.add].sort((a, b) => a - b);
        put(out.result, 'posts', id, terms);
        out.restored.push(`post ${id}`);
      }
      for (const failed of report.failed)
        writeFailed(out, `post ${failed.post_id}`, `could not be restored: ${failed.error.message}`);
      for (const id of postIds) done.add(id);
    }
  };
  // The core API path holds the site lock once for every group (as a merge does), so no other
  // writer's turn comes between them. A call that fails here (the lock busy, a read failing)
  // has recreated terms already: its posts are failures of this undo (journalled incomplete,
  // run it again), never an error saying nothing was changed.
  try {
    await withPostTermsLock(client, async () =>
      (await hasCompanion(client, 'post-terms')) ? write() : withSiteLock(client, write),
    );
  } catch (err) {
    if (!(err instanceof ToolError || err instanceof WordPressError)) throw err;
    const why = `could not be restored (${err.code}): ${message(err)}`;
    for (const postIds of groups.values())
      for (const id of postIds) if (!done.has(id)) writeFailed(out, `post ${id}`, why);
  }
}
