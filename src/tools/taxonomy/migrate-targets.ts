import { chunk, type WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import type { MigratePlan, RawTerm } from './migrate-plan.js';

export interface Targets {
  /** Source id → its term in the target taxonomy. */
  toId: Map<number, number>;
  /** The target terms this migration created. */
  created: number[];
  /** Per source, its registered meta the target could not take, named. */
  dropped: Map<number, string[]>;
}

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

function depth(plan: MigratePlan, term: RawTerm): number {
  let n = 0;
  for (let p = term.parent; p && n < 50; n++) p = plan.sources.find((s) => s.id === p)?.parent ?? 0;
  return n;
}

/**
 * The target terms: matched ones get the sources' meta, the others are created (name, slug,
 * description; the parent too when the target is hierarchical and it migrates along), parents
 * first. A flat target's in /batch/v1 requests of 25. A creation whose answer was lost is looked
 * up by its slug before anything is said (#59.12): found is made. The journal's intent named
 * every slug beforehand (`locate`), so an interrupted migration's undo finds them too (#59.4).
 */
export async function makeTargets(client: WordPressClient, plan: MigratePlan): Promise<Targets> {
  const out: Targets = { toId: new Map(), created: [], dropped: new Map() };
  const order = [...plan.sources].sort((a, b) => depth(plan, a) - depth(plan, b));
  const pending: Array<{ source: RawTerm; body: Record<string, unknown> }> = [];
  for (const source of order) {
    const target = plan.matched.get(source.id);
    const { carry, dropped: lost } = metaFor(plan, source, target);
    if (lost.length) out.dropped.set(source.id, lost);
    const meta = Object.keys(carry).length ? { meta: carry } : {};
    if (target) {
      out.toId.set(source.id, target.id);
      if (meta.meta) await client.post(`${plan.to.route}/${target.id}`, meta, { _fields: 'id' });
      continue;
    }
    const parent = plan.to.hierarchical && source.parent ? out.toId.get(source.parent) : undefined;
    const body = { name: source.name, slug: source.slug, description: source.description, ...(parent ? { parent } : {}), ...meta };
    if (!plan.to.hierarchical) {
      pending.push({ source, body });
      continue;
    }
    const made = await client.post<{ id: number }>(plan.to.route, body, { _fields: 'id' });
    out.toId.set(source.id, made.id);
    out.created.push(made.id);
  }
  const made = await client.batch(pending.map(({ body }) => ({ path: `${plan.to.route}?_fields=id`, body })));
  const lost = pending.filter((_, i) => {
    const r = made[i];
    return r && !r.ok && (r.status === undefined || r.status >= 500);
  });
  const found = lost.length ? await bySlug(client, plan, lost.map((p) => p.source.slug)) : new Map<string, number>();
  made.forEach((r, i) => {
    const { source } = pending[i] as { source: RawTerm };
    const id = r.ok ? Number((r.body as { id: number }).id) : found.get(source.slug);
    if (id === undefined) return;
    out.toId.set(source.id, id);
    out.created.push(id);
  });
  const failed = pending.find(({ source }) => !out.toId.has(source.id));
  if (failed) {
    const r = made[pending.indexOf(failed)] as { ok: false; error: Error };
    throw new ToolError('term_not_created', `The ${plan.to.noun} "${failed.source.name}" could not be created: ${r.error.message}. No post was changed.`, {
      hint: 'Fix the cause and run migrate-terms again: terms made so far are matched by slug.',
      details: { created_ids: out.created },
    });
  }
  return out;
}

/** Terms of the target by slug; a lookup that fails too leaves the outcome unknown (the intent's undo finds them). */
async function bySlug(client: WordPressClient, plan: MigratePlan, slugs: string[]): Promise<Map<string, number>> {
  try {
    const pages = await Promise.all(
      chunk(slugs, 100).map((slug) => client.all<{ id: number; slug: string }>(plan.to.route, { slug, _fields: 'id,slug', hide_empty: false, per_page: 100 })),
    );
    return new Map(pages.flat().map((t) => [t.slug, t.id]));
  } catch (err) {
    throw new ToolError('outcome_unknown', `Creating ${slugs.length} ${plan.to.plural} got no answer, and looking them up failed too (${(err as Error).message}): they may exist. No post was changed.`, {
      hint: 'Undo this change (undo-change) to remove whatever it made, or run migrate-terms again: terms made so far are matched by slug.',
    });
  }
}
