import type { WordPressClient } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import type { DoneState, PostTermChange, TermState } from '../undo-data.js';
import { pruneRoute } from './cleanup-routes.js';
import { deleteTermsIfUnused } from './delete-unused.js';
import type { PrunePlan } from './prune.js';
import { defaultCategoryId } from './term-writes.js';

export interface PruneOutcome {
  deleted: number[];
  kept: Array<{ id: number; reason: string }>;
  /** Deletions whose answer was lost, the term still there when looked up: it may still go (#59.12). */
  unknown: number[];
  /** What the journal keeps (undo-terms `done`): each object's change as the plugin answered it. */
  journal?: DoneState;
}

/**
 * Deletes the plan's terms, each only while the state it was planned on holds (#59): with the
 * companion plugin 0.7.0 (`terms/delete`) a term is kept when an object that was not among its
 * planned holders holds it now, or a child was added since; each object's change is answered as
 * made, and the journal keeps exactly that. With 0.6.0, `terms/prune` checks the count only.
 */
export async function applyPrune(client: WordPressClient, plan: PrunePlan): Promise<PruneOutcome> {
  const ids = plan.terms.map((t) => t.id);
  if (!(await hasCompanion(client, 'terms/delete'))) {
    const { deleted, kept } = await pruneRoute(client, plan.kind.taxonomy, ids, plan.maxObjects, plan.includeParents);
    return { deleted, kept, unknown: [] };
  }
  const answer = await deleteTermsIfUnused(
    client,
    plan.kind,
    plan.terms.map((t) => ({ id: t.id, holders: plan.holders.get(t.id) ?? [], ...(plan.includeParents ? { children: plan.children.get(t.id) ?? [] } : {}) })),
    { maxObjects: plan.maxObjects, includeParents: plan.includeParents },
  );
  // Deleted by a request whose answer was lost, or maybe still being deleted: each planned holder
  // may have lost it (and been filed under the default category), its children moved up.
  const lost = [...answer.unknown, ...answer.lostDeleted];
  const fallback = lost.length ? await defaultCategoryId(client).catch(() => undefined) : undefined;
  const maybe: Record<string, PostTermChange> = {};
  const terms: Record<string, Partial<TermState> | null> = {};
  for (const id of lost) {
    for (const object of plan.holders.get(id) ?? [])
      maybe[String(object)] = { added: plan.kind.taxonomy === 'category' && fallback !== undefined ? [fallback] : [], removed: [...(maybe[String(object)]?.removed ?? []), id] };
    terms[String(id)] = null;
    const parent = plan.terms.find((t) => t.id === id)?.parent ?? 0;
    for (const child of plan.children.get(id) ?? []) terms[String(child)] = { parent };
  }
  return {
    deleted: answer.deleted,
    kept: answer.kept,
    unknown: answer.unknown,
    journal: {
      post_changes: answer.changes,
      ...(Object.keys(maybe).length ? { maybe_post_changes: maybe } : {}),
      ...(Object.keys(terms).length ? { terms } : {}),
    },
  };
}
