import { mapLimit, type WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import type { PostTermChange } from '../undo-data.js';
import { changePostTerms } from './change-post-terms.js';
import type { MigratePlan, RawTerm } from './migrate-plan.js';
import { readPostTerms } from './post-terms.js';

export { type MigrateParams, type MigratePlan, migrateScope, planMigrate } from './migrate-plan.js';

/** A source's registered meta the target takes; the rest, by key, is dropped. */
function metaFor(plan: MigratePlan, source: RawTerm, target?: RawTerm) {
  const meta = source.meta && typeof source.meta === 'object' && !Array.isArray(source.meta) ? (source.meta as Record<string, unknown>) : {};
  const has = (target?.meta ?? {}) as Record<string, unknown>;
  const carry: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(meta)) {
    if (value === '' || value === null || value === false || value === 0) continue; // unset (REST shows defaults)
    if (!plan.targetMeta.has(key)) dropped.push(`${key} (not registered on ${plan.to.taxonomy})`);
    else if (has[key] !== undefined && has[key] !== '' && has[key] !== null && JSON.stringify(has[key]) !== JSON.stringify(value))
      dropped.push(`${key} (the target has ${JSON.stringify(has[key])})`);
    else if (JSON.stringify(has[key]) !== JSON.stringify(value)) carry[key] = value;
  }
  return { carry, dropped };
}

export interface MigrateTerm {
  from_id: number;
  name: string;
  to_id: number;
  created: boolean;
  posts: number;
  source_deleted: boolean;
  kept_reason?: string;
  meta_dropped?: string[];
}

export interface MigrateReport {
  from_taxonomy: string;
  to_taxonomy: string;
  terms: MigrateTerm[];
  posts_changed: number;
  /** Objects of types the target taxonomy is not on: they keep the source term. */
  posts_not_moved: Array<{ id: number; type: string | null }>;
  posts_failed: Array<{ post_id: number; code: string; message: string }>;
  /** For the journal (undo-terms: `done`); not in the answer. */
  post_changes?: Record<string, PostTermChange>;
  created_ids?: number[];
}

/** Terms made or matched in the target, their meta, every movable object given them, then the sources deleted where nothing is left. */
export async function applyMigrate(client: WordPressClient, plan: MigratePlan): Promise<MigrateReport> {
  const toId = new Map<number, number>();
  const created: number[] = [];
  const dropped = new Map<number, string[]>();
  // Parents first, so a child's parent (migrated too) is known in the target.
  const order = [...plan.sources].sort((a, b) => depth(plan, a) - depth(plan, b));
  // A flat target: its new terms in /batch/v1 requests of 25; a hierarchical one in order (parents first).
  const flat = !plan.to.hierarchical;
  const pending: Array<{ source: RawTerm; body: Record<string, unknown> }> = [];
  for (const source of order) {
    const target = plan.matched.get(source.id);
    const { carry, dropped: lost } = metaFor(plan, source, target);
    if (lost.length) dropped.set(source.id, lost);
    const meta = Object.keys(carry).length ? { meta: carry } : {};
    if (target) {
      toId.set(source.id, target.id);
      if (meta.meta) await client.post(`${plan.to.route}/${target.id}`, meta, { _fields: 'id' });
      continue;
    }
    const parent = plan.to.hierarchical && source.parent ? toId.get(source.parent) : undefined;
    const body = { name: source.name, slug: source.slug, description: source.description, ...(parent ? { parent } : {}), ...meta };
    if (flat) {
      pending.push({ source, body });
      continue;
    }
    const made = await client.post<{ id: number }>(plan.to.route, body, { _fields: 'id' });
    toId.set(source.id, made.id);
    created.push(made.id);
  }
  const made = await client.batch(pending.map(({ body }) => ({ path: `${plan.to.route}?_fields=id`, body })));
  made.forEach((r, i) => {
    if (!r.ok) return;
    const id = Number((r.body as { id: number }).id);
    toId.set((pending[i] as { source: RawTerm }).source.id, id);
    created.push(id);
  });
  const failed = made.findIndex((r) => !r.ok);
  if (failed >= 0) {
    const r = made[failed] as { ok: false; error: Error };
    throw new ToolError('term_not_created', `The ${plan.to.noun} "${(pending[failed] as { source: RawTerm }).source.name}" could not be created: ${r.error.message}. No post was changed.`, {
      hint: 'Fix the cause and run migrate-terms again: terms made so far are matched by slug.',
      details: { created_ids: created },
    });
  }
  // Each object gets the targets of the sources it holds: one write per group of the same sources.
  const had = new Map((await readPostTerms(client, plan.to, plan.movable.map((h) => h.id))).map((p) => [p.id, p.terms]));
  const groups = new Map<string, number[]>();
  for (const holder of plan.movable) {
    const add = holder.terms.filter((t) => toId.has(t)).map((t) => toId.get(t) as number);
    const key = JSON.stringify([...new Set(add)].sort((a, b) => a - b));
    groups.set(key, [...(groups.get(key) ?? []), holder.id]);
  }
  const report: MigrateReport = {
    from_taxonomy: plan.from.taxonomy,
    to_taxonomy: plan.to.taxonomy,
    terms: [],
    posts_changed: 0,
    posts_not_moved: plan.holders.filter((h) => !plan.movable.includes(h)).map((h) => ({ id: h.id, type: h.type })),
    posts_failed: [],
    post_changes: {},
    created_ids: created,
  };
  // The groups side by side (each one bulk write per 250 posts), as the client's concurrency allows.
  const results = await mapLimit([...groups], client.concurrency, ([key, ids]) =>
    changePostTerms(client, plan.to, ids, { add: JSON.parse(key) as number[], remove: [] }).then((result) => ({ add: JSON.parse(key) as number[], result })),
  );
  for (const { add, result } of results) {
    report.posts_changed += result.updated.length;
    for (const id of result.updated) {
      const gained = result.changes?.[String(id)]?.added ?? add.filter((t) => !had.get(id)?.includes(t));
      if (gained.length) (report.post_changes as Record<string, PostTermChange>)[String(id)] = { added: gained, removed: [] };
    }
    report.posts_failed.push(...result.failed.map((f) => ({ post_id: f.post_id, code: f.error.code, message: f.error.message })));
  }
  const failedIds = new Set(report.posts_failed.map((f) => f.post_id));
  const kept = new Map<number, string>();
  for (const source of plan.sources) {
    const stuck = plan.holders.filter((h) => h.terms.includes(source.id) && (!plan.movable.includes(h) || failedIds.has(h.id)));
    if (plan.keepSource) kept.set(source.id, 'keep_source');
    else if (stuck.length) kept.set(source.id, `${stuck.length} object(s) not moved keep it (ids ${stuck.slice(0, 10).map((h) => h.id).join(', ')})`);
  }
  // The sources with nothing left, deleted through /batch/v1 (25 a request).
  const gone = plan.sources.filter((t) => !kept.has(t.id));
  const deletions = await client.batch(gone.map((t) => ({ method: 'DELETE' as const, path: `${plan.from.route}/${t.id}?force=true` })));
  deletions.forEach((r, i) => {
    if (!r.ok && r.status !== 404) kept.set((gone[i] as RawTerm).id, `could not be deleted: ${r.error.message}`);
  });
  for (const source of plan.sources) {
    const to = toId.get(source.id) as number;
    report.terms.push({
      from_id: source.id,
      name: source.name,
      to_id: to,
      created: created.includes(to),
      posts: plan.holders.filter((h) => h.terms.includes(source.id)).length,
      source_deleted: !kept.has(source.id),
      ...(kept.has(source.id) ? { kept_reason: kept.get(source.id) } : {}),
      ...(dropped.has(source.id) ? { meta_dropped: dropped.get(source.id) } : {}),
    });
  }
  return report;
}

function depth(plan: MigratePlan, term: RawTerm): number {
  let n = 0;
  for (let p = term.parent; p && n < 50; n++) p = plan.sources.find((s) => s.id === p)?.parent ?? 0;
  return n;
}

