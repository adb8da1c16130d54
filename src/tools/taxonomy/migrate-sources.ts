import type { WordPressClient } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import type { TermState } from '../undo-data.js';
import { deleteTermsIfUnused } from './delete-unused.js';
import type { MigratePlan, RawTerm } from './migrate-plan.js';
import type { Moved } from './migrate-objects.js';
import { missingTerms, postsWithAnyTerm } from './post-terms.js';

export interface SourcesOutcome {
  deleted: Set<number>;
  /** Source id → why it stays. */
  kept: Map<number, string>;
  /** Sources whose deletion's answer was lost and that were still there when looked up: they may still go. */
  unknown: Set<number>;
  /** The journal's record of what may have been done (record.ts): the maybe-deleted sources gone, their children moved up. */
  maybe: Record<string, Partial<TermState> | null>;
}

/**
 * The sources nothing holds any more are deleted, each only while that still holds (#59.1):
 * with the companion plugin 0.7.0 `terms/delete` reads each again just before deleting it and
 * keeps one an object nobody planned for holds now (given it meanwhile) or that has a child
 * added since; otherwise the holders are read again first, as a merge does (merge-finish.ts).
 * Sources objects that cannot move keep (another post type, a failure, a changed object) stay.
 */
export async function deleteSources(client: WordPressClient, plan: MigratePlan, moved: Moved): Promise<SourcesOutcome> {
  const out: SourcesOutcome = { deleted: new Set(), kept: new Map(), unknown: new Set(), maybe: {} };
  const stuck = new Set([...moved.failed.map((f) => f.post_id), ...moved.unknown]);
  for (const source of plan.sources) {
    const held = plan.holders.filter((h) => h.terms.includes(source.id) && (!plan.movable.includes(h) || stuck.has(h.id)));
    if (plan.keepSource) out.kept.set(source.id, 'keep_source');
    else if (held.length) out.kept.set(source.id, `${held.length} object(s) not moved keep it (ids ${held.slice(0, 10).map((h) => h.id).join(', ')})`);
  }
  const gone = plan.sources.filter((t) => !out.kept.has(t.id));
  if (!gone.length) return out;
  if (await hasCompanion(client, 'terms/delete')) {
    const answer = await deleteTermsIfUnused(client, plan.from, gone.map((t) => ({ id: t.id, holders: [], children: plan.children.get(t.id) ?? [] })), {
      maxObjects: 0,
      includeParents: true,
    });
    for (const id of answer.deleted) out.deleted.add(id);
    for (const k of answer.kept) {
      if (k.reason === 'not_found') out.deleted.add(k.id); // deleted by someone else meanwhile: gone either way
      else out.kept.set(k.id, k.reason);
    }
    for (const id of answer.unknown) maybeGone(plan, gone.find((t) => t.id === id) as RawTerm, out);
    return out;
  }
  // Without the route: what holds them now, read again, then the free ones deleted (25 a request).
  const holders = await postsWithAnyTerm(client, plan.from, gone.map((t) => t.id));
  const free = gone.filter((t) => {
    const now = holders.filter((p) => p.terms.includes(t.id)).map((p) => p.id);
    if (now.length) out.kept.set(t.id, `used by ${now.length} object(s) now (${now.slice(0, 10).join(', ')})`);
    return !now.length;
  });
  const results = await client.batch(free.map((t) => ({ method: 'DELETE' as const, path: `${plan.from.route}/${t.id}?force=true` })));
  const lost = free.filter((_, i) => {
    const r = results[i];
    return r && !r.ok && (r.status === undefined || r.status >= 500);
  });
  const missing = lost.length ? new Set(await missingTerms(client, plan.from, lost.map((t) => t.id)).catch(() => [])) : new Set<number>();
  results.forEach((r, i) => {
    const term = free[i] as RawTerm;
    if (r.ok || r.status === 404 || missing.has(term.id)) out.deleted.add(term.id);
    else if (lost.includes(term)) maybeGone(plan, term, out);
    else out.kept.set(term.id, `could not be deleted: ${r.error.message}`);
  });
  return out;
}

/** A deletion that may still land: unknown, and journalled as done (its children moved up). */
function maybeGone(plan: MigratePlan, term: RawTerm, out: SourcesOutcome): void {
  out.unknown.add(term.id);
  out.maybe[String(term.id)] = null;
  for (const child of plan.children.get(term.id) ?? []) out.maybe[String(child)] = { parent: term.parent };
}
