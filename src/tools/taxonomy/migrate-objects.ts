import { chunk, inSteps, mapLimit, stepBudget, type WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import type { PostTermChange } from '../undo-data.js';
import { changePostTerms } from './change-post-terms.js';
import { heldSources, type MigratePlan } from './migrate-plan.js';
import { readPostTerms } from './post-terms.js';
import { removeTerms } from './remove.js';

/** What moving the objects did, item by item. */
export interface Moved {
  /** Objects now in their targets (and, unless keep_source, out of their sources). */
  changed: number[];
  failed: Array<{ post_id: number; code: string; message: string }>;
  /** Planned sources an object no longer held when it was reached: left as it is (#59.1). */
  skipped: Array<{ post_id: number; term_id: number; reason: string }>;
  /** Objects whose answer was lost and that were not found moved: they may still be (#59.12). */
  unknown: number[];
  /** Why their answer was lost. */
  unknownWhy?: string;
  /** Per object, the target terms it gained (the journal's `post_changes`). */
  targetChanges: Record<string, PostTermChange>;
  /** Per object, the sources it lost and the fallback it was filed under; undefined on the core path (the journal reads them). */
  sourceChanges?: Record<string, PostTermChange>;
  /** Changes whose answer was lost: recorded as made, less what each object had (record.ts). */
  maybe?: { target: Record<string, PostTermChange>; source: Record<string, PostTermChange> };
}

type MoveAnswer = {
  changes: Record<string, { added: number[]; removed: number[]; filed: number[] }> | unknown[];
  unchanged: number[];
  skipped: Array<{ id: number; term: number; reason: string }>;
  failed: Array<{ id: number; code: string; message: string }>;
  remaining: number[];
};

/** The objects per request (the route takes up to 500). */
const OBJECTS = 500;

/**
 * Each movable object gets the targets of the sources it holds and, unless keep_source, loses
 * those sources (#59.13: also when the source stays for objects that cannot move). With the
 * companion plugin 0.7.0 each object is read again as it is written and only sources it still
 * holds move (`terms/migrate-objects`), in the client's time budget; otherwise the bulk
 * post-terms path adds, then removes (change-post-terms.ts).
 */
export async function moveObjects(client: WordPressClient, plan: MigratePlan, toId: Map<number, number>): Promise<Moved> {
  if (!plan.movable.length) return { changed: [], failed: [], skipped: [], unknown: [], targetChanges: {}, sourceChanges: {} };
  if (!(await hasCompanion(client, 'terms/migrate-objects'))) return moveByChanges(client, plan, toId);
  const out: Moved = { changed: [], failed: [], skipped: [], unknown: [], targetChanges: {}, sourceChanges: {} };
  const map = plan.sources.map((s) => ({ from: s.id, to: toId.get(s.id) as number }));
  const objects = plan.movable.map((h) => ({ id: h.id, from: heldSources(plan, h) }));
  const budget = stepBudget(client);
  const runs = await mapLimit(chunk(objects, OBJECTS), client.concurrency, (part) =>
    inSteps(part, budget, async (todo, budget_ms) => {
      const answer = await client.post<MoveAnswer>(`/${COMPANION_NAMESPACE}/terms/migrate-objects`, {
        from_taxonomy: plan.from.taxonomy,
        to_taxonomy: plan.to.taxonomy,
        map,
        objects: todo,
        remove_source: !plan.keepSource,
        budget_ms,
      });
      const left = new Set(answer.remaining);
      return { answer, left: todo.filter((o) => left.has(o.id)) };
    }),
  );
  for (const run of runs) {
    for (const answer of run.answers) take(out, answer);
    const stopped = run.stopped;
    if (!stopped) continue;
    if (!stopped.lost) {
      // Refused as a whole (4xx): none of these was written.
      const { code, message } = stopped.error;
      if (!out.changed.length && stopped.items.length === objects.length) throw new ToolError(code, `${message} No post was changed.`);
      out.failed.push(...stopped.items.map((o) => ({ post_id: o.id, code, message })));
    } else await lookUp(client, plan, toId, stopped.items, stopped.error.message, out);
  }
  return out;
}

function take(out: Moved, answer: MoveAnswer): void {
  const changes = Array.isArray(answer.changes) ? {} : answer.changes;
  for (const [id, c] of Object.entries(changes)) {
    out.changed.push(Number(id));
    if (c.added.length) out.targetChanges[id] = { added: c.added, removed: [] };
    if (c.removed.length || c.filed.length) (out.sourceChanges as Record<string, PostTermChange>)[id] = { added: c.filed, removed: c.removed };
  }
  out.skipped.push(...answer.skipped.map((s) => ({ post_id: s.id, term_id: s.term, reason: s.reason })));
  out.failed.push(...answer.failed.map((f) => ({ post_id: f.id, code: f.code, message: f.message })));
}

/**
 * A request whose answer never came (#59.12): it may have moved any of its objects, or still
 * be moving them. Each is read back before the answer is given: one found moved is counted so,
 * the others are unknown, never failed; every one is journalled as moved (record.ts takes off
 * what an object had already), so an undo gives back whatever did land.
 */
async function lookUp(
  client: WordPressClient,
  plan: MigratePlan,
  toId: Map<number, number>,
  objects: Array<{ id: number; from: number[] }>,
  why: string,
  out: Moved,
): Promise<void> {
  out.maybe ??= { target: {}, source: {} };
  const ids = objects.map((o) => o.id);
  const [inTarget, inSource] = await Promise.all([
    readPostTerms(client, plan.to, ids).catch(() => []),
    readPostTerms(client, plan.from, ids).catch(() => []),
  ]);
  const target = new Map(inTarget.map((p) => [p.id, p.terms]));
  const source = new Map(inSource.map((p) => [p.id, p.terms]));
  for (const o of objects) {
    const targets = [...new Set(o.from.map((s) => toId.get(s) as number))];
    out.maybe.target[String(o.id)] = { added: targets, removed: [] };
    if (!plan.keepSource) out.maybe.source[String(o.id)] = { added: plan.fallback === undefined ? [] : [plan.fallback], removed: o.from };
    const moved =
      targets.every((t) => target.get(o.id)?.includes(t)) &&
      (plan.keepSource || (source.has(o.id) && !o.from.some((s) => source.get(o.id)?.includes(s))));
    if (moved) out.changed.push(o.id);
    else out.unknown.push(o.id);
  }
  if (out.unknown.length) out.unknownWhy = why;
}

/**
 * The path without the plugin's route: targets added per group of objects holding the same
 * sources (the bulk post-terms path), then those sources taken off the objects that have their
 * targets (remove.ts: one left with no category is filed under the default category).
 */
async function moveByChanges(client: WordPressClient, plan: MigratePlan, toId: Map<number, number>): Promise<Moved> {
  const out: Moved = { changed: [], failed: [], skipped: [], unknown: [], targetChanges: {} };
  const had = new Map((await readPostTerms(client, plan.to, plan.movable.map((h) => h.id))).map((p) => [p.id, p.terms]));
  const groups = new Map<string, number[]>();
  for (const holder of plan.movable) {
    const key = JSON.stringify(heldSources(plan, holder).sort((a, b) => a - b));
    groups.set(key, [...(groups.get(key) ?? []), holder.id]);
  }
  const results = await mapLimit([...groups], client.concurrency, async ([key, ids]) => {
    const from = JSON.parse(key) as number[];
    const add = [...new Set(from.map((s) => toId.get(s) as number))];
    return { from, add, result: await changePostTerms(client, plan.to, ids, { add, remove: [] }) };
  });
  for (const { from, add, result } of results) {
    for (const id of result.updated) {
      const gained = result.changes?.[String(id)]?.added ?? add.filter((t) => !had.get(id)?.includes(t));
      if (gained.length) out.targetChanges[String(id)] = { added: gained, removed: [] };
    }
    out.failed.push(...result.failed.map((f) => ({ post_id: f.post_id, code: f.error.code, message: f.error.message })));
    const moved = [...result.updated, ...result.unchanged];
    if (plan.keepSource || !moved.length) {
      out.changed.push(...moved);
      continue;
    }
    try {
      const removed = await removeTerms(client, plan.from, moved, from);
      out.changed.push(...removed.updated, ...removed.unchanged);
      out.failed.push(...removed.failed.map((f) => ({ post_id: f.post_id, code: f.error.code, message: f.error.message })));
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      out.failed.push(...moved.map((post_id) => ({ post_id, code: err.code, message: `${err.message} It has its new terms and keeps its old ones.` })));
    }
  }
  return out;
}
