import type { WordPressClient } from '../../client/index.js';
import { changePostTerms } from './change-post-terms.js';
import { failure, missingTerms, type PostFailure, type PostTerms, postsWithAnyTerm } from './post-terms.js';
import type { TermKind } from './terms.js';
import type { PostTermChange } from '../undo-data.js';

export interface MergePlan {
  /** The taxonomy merged in: categories, tags, any other. */
  kind: TermKind;
  targetId: number;
  sourceIds: number[];
  /** Posts in any source, with their current terms of the taxonomy. */
  posts: PostTerms[];
  /** Children of sources to move under the target. */
  children: number[];
  deleteSources: boolean;
  /** Registered meta the target gets from the sources, and the values dropped (merge-meta.ts). */
  meta?: { carry: Record<string, unknown>; dropped: string[] };
}

export interface MergeReport {
  target_id: number;
  posts_moved: number;
  posts_failed: PostFailure[];
  sources_deleted: number[];
  children_reparented: number[];
  children_failed?: Array<{ id: number; error: { code: string; message: string } }>;
  sources_kept_reason?: string;
  sources_delete_failed?: Array<{ id: number; error: { code: string; message: string } }>;
  /** Registered meta keys the target got from the sources (#51). */
  meta_carried?: string[];
  /** Source meta values not carried (the target had its own value), named. */
  meta_dropped?: string[];
  /**
   * Per post this merge wrote, the terms it gained and lost (#47.2): what the journal keeps, so
   * posts given a source after the undo scope was read are journalled too. Not in the answer.
   */
  post_changes?: Record<string, PostTermChange>;
}

/**
 * After the merge's writes (changePostTerms checked each post carries the target), deletes the
 * sources if asked and safe: no failure, a fresh read finds no post left in any source, and the
 * target still exists — if it was deleted meanwhile, the moved posts fail naming it and get
 * their sources back, and the sources stay.
 */
export async function finishMerge(
  client: WordPressClient,
  plan: MergePlan,
  report: MergeReport,
  moved: number[],
): Promise<MergeReport> {
  if (!plan.deleteSources) return report;
  if (report.posts_failed.length || report.children_failed?.length) {
    report.sources_kept_reason = `Sources were not deleted: ${report.posts_failed.length} post(s) and ${report.children_failed?.length ?? 0} child term(s) could not be moved. Fix them and run the merge again.`;
    return report;
  }
  // Verify on the site before deleting: a post the reads missed (added meanwhile, of a type or
  // status not listed, or a list cut short by a proxy) would otherwise lose its category, and
  // so would every moved post if the target was deleted meanwhile.
  const [remaining, targetGone] = await Promise.all([
    postsWithAnyTerm(client, plan.kind, plan.sourceIds),
    missingTerms(client, plan.kind, [plan.targetId]),
  ]);
  if (targetGone.length) {
    await giveSourcesBack(client, plan, moved);
    report.posts_moved -= moved.length;
    const message = (id: number) =>
      `The target ${plan.kind.noun} ${plan.targetId} was deleted meanwhile; post ${id} got its source ${plan.kind.plural} back.`;
    for (const id of moved) report.posts_failed.push(failure(id, { code: 'term_not_found', message: message(id) }));
    report.sources_kept_reason = `Sources were not deleted: the target ${plan.kind.noun} ${plan.targetId} was deleted during the merge.`;
    return report;
  }
  if (remaining.length) {
    const ids = remaining.map((post) => post.id);
    report.sources_kept_reason = `Sources were not deleted: ${ids.length} post(s) still have a source term after the merge (ids ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', …' : ''}). Run the merge again.`;
    return report;
  }
  return deleteSources(client, plan.kind, plan.sourceIds, report);
}

/** The sources each lost post had before the merge, added back (as changes). */
async function giveSourcesBack(client: WordPressClient, plan: MergePlan, ids: number[]): Promise<void> {
  const groups = new Map<string, number[]>();
  for (const post of plan.posts) {
    if (!ids.includes(post.id)) continue;
    const key = JSON.stringify(post.terms.filter((t) => plan.sourceIds.includes(t)));
    groups.set(key, [...(groups.get(key) ?? []), post.id]);
  }
  for (const [key, postIds] of groups)
    await changePostTerms(client, plan.kind, postIds, { add: JSON.parse(key) as number[], remove: [] });
}

/**
 * Deletes the sources. One already gone (another merge of the same source) counts as deleted;
 * a deletion whose answer was lost is read back: gone → deleted, there → failed, unreadable →
 * outcome unknown.
 */
async function deleteSources(client: WordPressClient, kind: TermKind, ids: number[], report: MergeReport): Promise<MergeReport> {
  const deletions = await client.batch(
    ids.map((id) => ({ method: 'DELETE' as const, path: `${kind.route}/${id}?force=true` })),
  );
  const lost = (r: (typeof deletions)[number]) => !r.ok && (r.status === undefined || r.status >= 500);
  let gone: Set<number> | undefined = new Set();
  if (deletions.some(lost))
    gone = await missingTerms(client, kind, ids).then(
      (m) => new Set(m),
      () => undefined,
    );
  const failures: NonNullable<MergeReport['sources_delete_failed']> = [];
  deletions.forEach((result, index) => {
    const id = ids[index] as number;
    if (result.ok || result.status === 404 || (lost(result) && gone?.has(id))) report.sources_deleted.push(id);
    else if (lost(result) && !gone) failures.push({ id, error: unknownDelete(result.error) });
    else failures.push({ id, error: { code: result.error.code, message: result.error.message } });
  });
  if (failures.length) report.sources_delete_failed = failures;
  return report;
}

function unknownDelete(error: { message: string }) {
  return {
    code: 'outcome_unknown',
    message: `${error.message}; reading the term back failed too, so whether it was deleted is unknown. List the terms and run the merge again.`,
  };
}
