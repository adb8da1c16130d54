import { type WordPressClient, WordPressError } from '../client/index.js';
import { changePostTerms } from '../tools/taxonomy/change-post-terms.js';
import { hasCompanion } from '../tools/companion.js';
import { withPostTermsLock } from '../tools/taxonomy/post-lock.js';
import { withSiteLock } from '../tools/taxonomy/site-lock.js';
import { ToolError } from '../tools/tool-error.js';
import type { TaxonomyRef } from './types.js';
import { message, type RestoreOptions, type RestoreOutcome, put, writeFailed } from './types.js';

/** One change to posts' terms, as JSON (the key of a group of posts that need it). */
export type PostGroups = Map<string, number[]>;

/** Adds a post to the group of posts needing the same change. */
export function addToGroup(groups: PostGroups, change: { add: number[]; remove: number[] }, id: number): void {
  const key = JSON.stringify(change);
  groups.set(key, [...(groups.get(key) ?? []), id]);
}

/**
 * Writes each group's change (restorePosts, restorePostChanges): posts needing the same change go
 * together through the bulk path (the companion plugin's route, 250 posts a request;
 * `/batch/v1` otherwise), so a thousand posts take a few requests. A dry run puts the plan in
 * `out.result` (each post's terms after: what undo's question is built from,
 * tools/changes/undo-review.ts) and writes nothing. `written` hears of each post written.
 */
export async function writePostGroups(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  groups: PostGroups,
  options: RestoreOptions,
  out: RestoreOutcome,
  written?: (id: number, change: { add: number[]; remove: number[] }) => void,
): Promise<void> {
  const after = (id: number, change: { add: number[]; remove: number[] }) => {
    const now = out.current.posts?.[String(id)] ?? [];
    put(out.result, 'posts', id, [...now.filter((t) => !change.remove.includes(t)), ...change.add].sort((a, b) => a - b));
  };
  if (options.dryRun) {
    for (const [group, postIds] of groups) {
      const change = JSON.parse(group) as { add: number[]; remove: number[] };
      for (const id of postIds) after(id, change);
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
        after(id, change);
        written?.(id, change);
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
