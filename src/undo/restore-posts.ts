import type { WordPressClient } from '../client/index.js';
import type { RestoreOptions, RestoreOutcome } from './types.js';
import { sameList, type TaxonomyRef, type UndoState } from './state.js';
import { addToGroup, type PostGroups, writePostGroups } from './write-post-groups.js';

/**
 * Gives each post the change touched exactly the terms it had in the taxonomy (recreated terms
 * by their new ids). A post whose terms changed since (re-categorised by someone else) is a
 * conflict, left as it is unless force. Posts needing the same change are written together
 * (write-post-groups.ts).
 */
export async function restorePosts(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const groups: PostGroups = new Map();
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
      addToGroup(groups, { add: want.filter((t) => !now.includes(t)), remove: now.filter((t) => !want.includes(t)) }, id);
    }
  }
  await writePostGroups(client, taxonomy, groups, options, out);
}
