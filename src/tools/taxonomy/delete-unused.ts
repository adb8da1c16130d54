import { chunk, inSteps, stepBudget, type WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE } from '../companion.js';
import type { PostTermChange } from '../undo-data.js';
import { missingTerms } from './post-terms.js';
import type { TermKind } from './terms.js';

/** A term to delete and the state it was planned on: the objects and children it may have then. */
export interface PlannedDeletion {
  id: number;
  /** The objects planned to lose it; one holding it now that is not here keeps it. Absent: any (up to max_objects). */
  holders?: number[];
  /** Its children when planned; one added since keeps it. */
  children?: number[];
}

export interface Deletions {
  deleted: number[];
  kept: Array<{ id: number; reason: string }>;
  /** Per object, what the deletions did to its terms (the term gone, the fallback WordPress filed it under). */
  changes: Record<string, PostTermChange>;
  /** Per deleted term, the children WordPress moved up to its parent. */
  childrenMoved: Record<string, number[]>;
  /** Terms whose request's answer was lost and which were still there when looked up: they may still go (#59.12). */
  unknown: number[];
  /** Terms whose request's answer was lost and which were gone when looked up (in `deleted` too): what it did to their objects is not known. */
  lostDeleted: number[];
}

type Answer = {
  deleted: number[];
  kept: Array<{ id: number; reason: string }>;
  changes: Record<string, PostTermChange> | unknown[];
  children_moved: Record<string, number[]> | unknown[];
  remaining: number[];
};

/**
 * The companion plugin's `terms/delete` (0.7.0, term-bulk.php): each term read again just before
 * it goes and kept, named, when the state it was planned on no longer holds (#59); 500 terms a
 * request, each request in the client's time budget, the terms it did not reach sent again
 * (#61). A request whose answer is lost is looked up before anything is said: a term gone is
 * deleted, one still there is unknown (PHP may still be deleting it), never "not deleted".
 */
export async function deleteTermsIfUnused(
  client: WordPressClient,
  kind: TermKind,
  terms: readonly PlannedDeletion[],
  options: { maxObjects: number; includeParents: boolean },
): Promise<Deletions> {
  const out: Deletions = { deleted: [], kept: [], changes: {}, childrenMoved: {}, unknown: [], lostDeleted: [] };
  const budget = stepBudget(client);
  for (const part of chunk([...terms], 500)) {
    const steps = await inSteps(part, budget, async (todo, budget_ms) => {
      const answer = await client.post<Answer>(`/${COMPANION_NAMESPACE}/terms/delete`, {
        taxonomy: kind.taxonomy,
        terms: todo,
        max_objects: options.maxObjects,
        include_parents: options.includeParents,
        budget_ms,
      });
      const left = new Set(answer.remaining);
      return { answer, left: todo.filter((t) => left.has(t.id)) };
    });
    for (const answer of steps.answers) {
      out.deleted.push(...answer.deleted);
      out.kept.push(...answer.kept);
      if (!Array.isArray(answer.changes)) mergeChanges(out.changes, answer.changes);
      if (!Array.isArray(answer.children_moved)) Object.assign(out.childrenMoved, answer.children_moved);
    }
    const stopped = steps.stopped;
    if (!stopped) continue;
    const ids = stopped.items.map((t) => t.id);
    if (!stopped.lost) {
      if (!out.deleted.length && !out.kept.length) throw stopped.error;
      out.kept.push(...ids.map((id) => ({ id, reason: `not deleted: ${stopped.error.message}` })));
      continue;
    }
    let gone: Set<number>;
    try {
      gone = new Set(await missingTerms(client, kind, ids));
    } catch {
      gone = new Set();
    }
    for (const id of ids) {
      if (gone.has(id)) out.lostDeleted.push(id);
      (gone.has(id) ? out.deleted : out.unknown).push(id);
    }
  }
  return out;
}

/** An object's changes from several requests add up (it may lose one term in each). */
export function mergeChanges(into: Record<string, PostTermChange>, more: Record<string, PostTermChange>): void {
  for (const [id, change] of Object.entries(more)) {
    const prev = into[id] ?? { added: [], removed: [] };
    into[id] = {
      added: [...new Set([...prev.added, ...change.added])].filter((t) => !change.removed.includes(t)),
      removed: [...new Set([...prev.removed, ...change.removed])],
    };
  }
}
