import { inSteps, stepBudget, type WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../companion.js';
import type { TermState } from '../undo-data.js';
import type { TermKind } from './terms.js';

export interface ParentMoves {
  moved: number[];
  /** Terms whose parent changed since the plan (or that were deleted): left as they are (#59). */
  skipped: Array<{ id: number; reason: string }>;
  failed: Array<{ id: number; code: string; message: string }>;
  /** Moves whose answer was lost, not seen done when read back: they may still land (#59.12). */
  unknown: number[];
  /** The journal's record of those (record.ts): as the call would leave them. */
  maybe: Record<string, Partial<TermState>>;
}

type Answer = { moved: number[]; skipped: Array<{ id: number; reason: string }>; failed: ParentMoves['failed']; remaining: number[] };

/**
 * Gives each term `parent`, only where its parent is still the one planned (`from`): with the
 * companion plugin 0.7.0 each term is read again just before it is moved (`terms/parent`), in
 * the client's time budget; otherwise through /batch/v1, which cannot check.
 */
export async function setParents(
  client: WordPressClient,
  kind: TermKind,
  terms: ReadonlyArray<{ id: number; parent: number }>,
  parent: number,
): Promise<ParentMoves> {
  const out: ParentMoves = { moved: [], skipped: [], failed: [], unknown: [], maybe: {} };
  if (!(await hasCompanion(client, 'terms/parent'))) {
    const results = await client.batch(terms.map((t) => ({ path: `${kind.route}/${t.id}?_fields=id,parent`, body: { parent } })));
    results.forEach((r, i) => {
      const id = (terms[i] as { id: number }).id;
      if (r.ok && (r.body as { parent: number }).parent === parent) out.moved.push(id);
      else if (r.ok) out.failed.push({ id, code: 'parent_not_set', message: `WordPress kept parent ${(r.body as { parent: number }).parent}` });
      else out.failed.push({ id, code: r.error.code, message: r.error.message });
    });
    return out;
  }
  const items = terms.map((t) => ({ id: t.id, from: t.parent, to: parent }));
  for (let at = 0; at < items.length; at += 500) {
    const steps = await inSteps(items.slice(at, at + 500), stepBudget(client), async (todo, budget_ms) => {
      const answer = await client.post<Answer>(`/${COMPANION_NAMESPACE}/terms/parent`, { taxonomy: kind.taxonomy, items: todo, budget_ms });
      const left = new Set(answer.remaining);
      return { answer, left: todo.filter((t) => left.has(t.id)) };
    });
    for (const a of steps.answers) {
      out.moved.push(...a.moved);
      out.skipped.push(...a.skipped.map(({ id, reason }) => ({ id, reason })));
      out.failed.push(...a.failed);
    }
    const stopped = steps.stopped;
    if (!stopped) continue;
    const ids = stopped.items.map((t) => t.id);
    if (!stopped.lost) {
      out.failed.push(...ids.map((id) => ({ id, code: stopped.error.code, message: stopped.error.message })));
      continue;
    }
    const now = await client
      .all<{ id: number; parent: number }>(kind.route, { include: ids, _fields: 'id,parent', hide_empty: false, per_page: 100 })
      .catch(() => []);
    for (const id of ids) {
      if (now.some((t) => t.id === id && t.parent === parent)) out.moved.push(id);
      else out.unknown.push(id);
      out.maybe[String(id)] = { parent };
    }
  }
  return out;
}
