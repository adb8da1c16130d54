import { mapLimit, type WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { toErrorPayload } from '../error-payload.js';
import { changePostTerms } from './change-post-terms.js';
import { hasCompanion } from '../companion.js';
import { finishMerge, type MergePlan, type MergeReport } from './merge-finish.js';

export type { MergePlan, MergeReport };
import { hiddenHolders, hiddenHoldersError } from './hidden-holders.js';
import { type AssignReport, postsWithAnyTerm } from './post-terms.js';
import { MERGE_TERM_FIELDS, mergeMeta } from './merge-meta.js';
import { withSiteLock } from './site-lock.js';
import { defaultCategoryId } from './term-writes.js';
import { type TermKind, termNotFound } from './terms.js';
import type { PostTermChange } from '../undo-data.js';

type TermRef = { id: number; parent: number };

/** Reads everything a merge needs and checks it; writes nothing. */
export async function planMerge(
  client: WordPressClient,
  kind: TermKind,
  sourceIds: number[],
  targetId: number,
  deleteSources: boolean,
): Promise<MergePlan> {
  const ids = [...sourceIds, targetId];
  const found = await client.all<TermRef & { meta?: unknown; cms_meta_keys?: unknown }>(kind.route, {
    include: ids,
    _fields: MERGE_TERM_FIELDS,
    hide_empty: false,
    per_page: 100,
    context: 'edit',
  });
  const known = new Map(found.map((term) => [term.id, term]));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    const error = termNotFound(kind, missing);
    throw new ToolError(error.code, `${error.message} Nothing was changed.`, {
      hint: error.hint,
      details: error.details,
    });
  }
  if (deleteSources && kind.taxonomy === 'category') {
    const defaultId = await defaultCategoryId(client);
    if (defaultId !== undefined && sourceIds.includes(defaultId)) {
      throw new ToolError(
        'cannot_delete_default_category',
        `Category ${defaultId} is the site’s default category; WordPress never deletes it. Nothing was changed.`,
        {
          hint: 'Merge with delete_sources: false to move its posts and keep it, or make another category the default first.',
        },
      );
    }
  }
  const meta = mergeMeta(found, kind, sourceIds, targetId);
  const [posts, children, hidden] = await Promise.all([
    postsWithAnyTerm(client, kind, sourceIds),
    kind.hierarchical ? childrenToMove(client, kind, sourceIds, targetId, known) : [],
    // Posts REST cannot show would keep only the deleted sources: refused before anything is written.
    deleteSources ? hiddenHolders(client, kind, sourceIds) : undefined,
  ]);
  if (hidden) {
    const what = `merge and delete the ${kind.plural} ${sourceIds.join(', ')}`;
    throw hiddenHoldersError(kind, hidden, what, 'merge with delete_sources: false (the sources keep those posts)');
  }
  return { kind, targetId, sourceIds, posts, children, deleteSources, meta };
}

/**
 * Children of the sources, except the target and its ancestors: moving an ancestor of the
 * target under the target would be a loop (WordPress would silently make it top level).
 */
async function childrenToMove(
  client: WordPressClient,
  kind: TermKind,
  sourceIds: number[],
  targetId: number,
  known: Map<number, TermRef>,
): Promise<number[]> {
  const lists = await mapLimit(sourceIds, client.concurrency, (parent) =>
    client.all<TermRef>(kind.route, { parent, _fields: 'id,parent', hide_empty: false, orderby: 'id' }),
  );
  const children = lists.flat().map((child) => child.id);
  if (!children.length) return [];
  const ancestors = new Set<number>([targetId]);
  for (let id = known.get(targetId)?.parent ?? 0; id !== 0 && !ancestors.has(id); ) {
    ancestors.add(id);
    id = (known.get(id) ?? (await client.get<TermRef>(`${kind.route}/${id}`, { _fields: 'id,parent' }))).parent;
  }
  return [...new Set(children)].filter((id) => !ancestors.has(id));
}

export function describePlan(plan: MergePlan, maxIds = 100) {
  return {
    dry_run: true,
    target_id: plan.targetId,
    posts_to_move: plan.posts.length,
    post_ids: plan.posts.slice(0, maxIds).map((post) => post.id),
    ...(plan.posts.length > maxIds && { post_ids_truncated: true }),
    children_to_reparent: plan.children,
    sources_to_delete: plan.deleteSources ? plan.sourceIds : [],
    ...(plan.meta && Object.keys(plan.meta.carry).length ? { meta_to_carry: Object.keys(plan.meta.carry) } : {}),
    ...(plan.meta?.dropped.length ? { meta_dropped: plan.meta.dropped } : {}),
  };
}

/**
 * Writes the plan: every post once (target added, sources removed) and the children; then
 * deletes the sources only if every write succeeded and the site, read again, shows no post
 * (of any type or status) left in them, the target still there and every moved post in it
 * (merge-finish.ts). On the core API path all of it holds the site lock (site-lock.ts).
 */
export async function applyMerge(client: WordPressClient, plan: MergePlan): Promise<MergeReport> {
  if (await hasCompanion(client, 'post-terms')) return writeMerge(client, plan);
  return withSiteLock(client, () => writeMerge(client, plan));
}

async function writeMerge(client: WordPressClient, plan: MergePlan): Promise<MergeReport> {
  const [posts, children] = await Promise.all([
    changePostTerms(
      client,
      plan.kind,
      plan.posts.map((post) => post.id),
      { add: [plan.targetId], remove: plan.sourceIds },
      plan.posts,
    ),
    client.batch(
      plan.children.map((id) => ({ path: `${plan.kind.route}/${id}?_fields=id`, body: { parent: plan.targetId } })),
    ),
  ]);
  const report: MergeReport = {
    target_id: plan.targetId,
    posts_moved: posts.updated.length + posts.unchanged.length,
    posts_failed: posts.failed,
    sources_deleted: [],
    children_reparented: [],
  };
  // Registered meta the target has none of, from the sources (before they may be deleted).
  if (plan.meta && Object.keys(plan.meta.carry).length && (posts.updated.length + posts.unchanged.length || !plan.posts.length)) {
    await client.post(`${plan.kind.route}/${plan.targetId}`, { meta: plan.meta.carry }, { _fields: 'id' });
    report.meta_carried = Object.keys(plan.meta.carry);
  }
  if (plan.meta?.dropped.length) report.meta_dropped = plan.meta.dropped;
  const childFailures: NonNullable<MergeReport['children_failed']> = [];
  const moved = await childrenMoved(client, plan, children);
  children.forEach((result, index) => {
    const childId = plan.children[index] as number;
    if (result.ok || moved.has(childId)) report.children_reparented.push(childId);
    else childFailures.push({ id: childId, error: { code: result.error.code, message: result.error.message } });
  });
  if (childFailures.length) report.children_failed = childFailures;
  try {
    const done = await finishMerge(client, plan, report, [...posts.updated, ...posts.unchanged]);
    return { ...done, post_changes: changesMade(plan, posts, done) };
  } catch (err) {
    throw written(err, report);
  }
}

/**
 * What the merge did to each post's terms: as the companion plugin (0.5.3) read them while
 * writing each post, else from the terms the merge read just before writing (the plan; on the
 * core path under the site lock): a post updated gained the target if it lacked it and lost the
 * sources it had. One left changed by a failure (an added term deleted meanwhile, the removed
 * ones not given back) lost its sources. A post given its sources back, or failed untouched,
 * changed nothing.
 */
function changesMade(plan: MergePlan, written: AssignReport, report: MergeReport): Record<string, PostTermChange> {
  const had = new Map(plan.posts.map((post) => [post.id, post.terms]));
  const failed = new Map(report.posts_failed.map((f) => [f.post_id, f.error]));
  const out: Record<string, PostTermChange> = {};
  const lost = (id: number) => plan.sourceIds.filter((t) => had.get(id)?.includes(t));
  for (const id of written.updated) {
    if (failed.has(id)) continue;
    const exact = written.changes?.[String(id)];
    const added = exact ? exact.added : had.get(id)?.includes(plan.targetId) ? [] : [plan.targetId];
    const removed = exact ? exact.removed : lost(id);
    if (added.length || removed.length) out[String(id)] = { added, removed };
  }
  for (const [id, error] of failed)
    if (error.changed && lost(id).length) out[String(id)] = { added: [], removed: lost(id) };
  return out;
}

/** A merge that fails after its post writes says what it had written (and that no source is deleted). */
function written(err: unknown, report: MergeReport): unknown {
  const payload = toErrorPayload(err);
  if (!payload || !report.posts_moved) return err;
  return new ToolError(
    payload.code,
    `${payload.message} Before this failure ${report.posts_moved} post(s) had been moved to category ${report.target_id}; no source was deleted.`,
    {
      hint: 'Run the same merge again: it moves what is left and then deletes the sources.',
      details: { posts_moved: report.posts_moved },
    },
  );
}

/** Children whose re-parenting answer was lost (network, 5xx) but which are under the target, read back. */
async function childrenMoved(
  client: WordPressClient,
  plan: MergePlan,
  results: Awaited<ReturnType<WordPressClient['batch']>>,
): Promise<Set<number>> {
  const lost = plan.children.filter((_, i) => {
    const result = results[i];
    return result && !result.ok && (result.status === undefined || result.status >= 500);
  });
  if (!lost.length) return new Set();
  const now = await client
    .all<{ id: number; parent: number }>(plan.kind.route, {
      include: lost,
      _fields: 'id,parent',
      hide_empty: false,
      per_page: 100,
    })
    .catch(() => []);
  return new Set(now.filter((term) => term.parent === plan.targetId).map((term) => term.id));
}
