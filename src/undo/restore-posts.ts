import type { WordPressClient } from '../client/index.js';
import { changePostTerms } from '../tools/taxonomy/change-post-terms.js';
import { withPostTermsLock } from '../tools/taxonomy/post-lock.js';
import { type RestoreOptions, type RestoreOutcome, put } from './types.js';
import type { TaxonomyRef, UndoState } from './state.js';

/**
 * Takes back what the change did to each post's terms in the taxonomy: the terms it added come
 * off, the terms it removed go back (recreated ones by their new ids), the post's other terms
 * stay; undone newest first, every post ends with exactly the terms it had. A post where the
 * change shows only in part (someone took off a term it added) is a conflict, left as it is
 * unless force. Posts needing the same change go together through the bulk path (the companion plugin's
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
    // What the change did to the post: terms it added, terms it took away (recreated ones by their new id).
    const want = had.map((t) => out.idMap[t] ?? t);
    const added = left ? left.filter((t) => !had.includes(t)) : [];
    const removed = left ? want.filter((_, i) => !left.includes(had[i] as number)) : want;
    if (left && !added.length && !removed.length) continue; // not changed by this change
    const blocked = had.filter(unmade);
    if (now === undefined) out.conflicts.push({ item, reason: 'no longer exists (or cannot be read)' });
    else if (!added.some((t) => now.includes(t)) && removed.every((t) => now.includes(t))) out.skipped.push(item);
    else if (!options.force && left && !(added.every((t) => now.includes(t)) && !removed.some((t) => now.includes(t))))
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
      const change = {
        add: removed.filter((t) => !now.includes(t)).sort((a, b) => a - b),
        remove: added.filter((t) => now.includes(t)).sort((a, b) => a - b),
      };
      const group = JSON.stringify(change);
      groups.set(group, [...(groups.get(group) ?? []), id]);
    }
  }
  if (options.dryRun) {
    for (const postIds of groups.values()) out.restored.push(...postIds.map((id) => `post ${id}`));
    return;
  }
  await withPostTermsLock(client, async () => {
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
        out.conflicts.push({
          item: `post ${failed.post_id}`,
          reason: `could not be restored: ${failed.error.message}`,
        });
    }
  });
}
