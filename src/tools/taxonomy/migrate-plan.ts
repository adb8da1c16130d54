import { chunk, decodeEntities, mapLimit, type WordPressClient } from '../../client/index.js';
import { termUsage } from './cleanup-routes.js';
import { hasCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import { taxonomyRef } from '../undo-data.js';
import { postsWithAnyTerm } from './post-terms.js';
import { taxonomyPostTypes } from './post-types.js';
import { registeredTermMeta } from './term-meta.js';
import { resolveTaxonomy } from './taxonomies.js';
import { defaultCategoryId } from './term-writes.js';
import { type TermKind, termNotFound } from './terms.js';

/** migrate-terms' plan (#51): everything read before the first write, checked; and its journal scope. */
export interface MigrateParams {
  from_taxonomy: string;
  to_taxonomy: string;
  term_ids: number[];
  keep_source?: boolean;
}

export type RawTerm = { id: number; name: string; slug: string; description: string; parent: number; meta?: unknown };
export type Holder = { id: number; type: string | null; terms: number[] };

export interface MigratePlan {
  from: TermKind;
  to: TermKind;
  sources: RawTerm[];
  /** Source id → the target term with its slug, when one exists. */
  matched: Map<number, RawTerm>;
  /** Objects holding a source; `movable` those of a type the target taxonomy is on. */
  holders: Holder[];
  movable: Holder[];
  /** Registered meta keys of the target taxonomy. */
  targetMeta: Set<string>;
  keepSource: boolean;
  /** The default category (from categories): WordPress files a post it leaves without any under it. */
  fallback?: number;
  /**
   * The sources' children (hierarchical source taxonomies, #59.3): WordPress moves them up when a
   * source is deleted, so the journal keeps their parent, and a source is deleted only while its
   * children are these (one added since keeps it).
   */
  children: Map<number, number[]>;
}

/** The sources the migration creates in the target (no term there has their slug). */
export const toCreate = (plan: MigratePlan) => plan.sources.filter((t) => !plan.matched.has(t.id));

/** The sources an object holds: what it is moved from. */
export const heldSources = (plan: MigratePlan, holder: Holder) => holder.terms.filter((t) => plan.sources.some((s) => s.id === t));

const FIELDS = 'id,name,slug,description,parent,meta';

/** Reads what a migration needs; refuses what it cannot do. Writes nothing. */
export async function planMigrate(client: WordPressClient, params: MigrateParams): Promise<MigratePlan> {
  const [from, to] = await Promise.all([resolveTaxonomy(client, params.from_taxonomy), resolveTaxonomy(client, params.to_taxonomy)]);
  if (from.taxonomy === to.taxonomy)
    throw new ToolError('same_taxonomy', `from_taxonomy and to_taxonomy are both ${from.taxonomy}.`, { hint: 'Use merge-terms within one taxonomy.' });
  const ids = [...new Set(params.term_ids)];
  const found = await client.all<RawTerm>(from.route, { include: ids, _fields: FIELDS, hide_empty: false, per_page: 100 });
  const sources = found.map((t) => ({ ...t, name: decodeEntities(t.name) }));
  const missing = ids.filter((id) => !sources.some((t) => t.id === id));
  if (missing.length) throw termNotFound(from, missing);
  const fallback = from.taxonomy === 'category' ? await defaultCategoryId(client) : undefined;
  if (!params.keep_source) {
    if (fallback !== undefined && ids.includes(fallback))
      throw new ToolError('cannot_delete_default_category', `Category ${fallback} is the site's default category; WordPress never deletes it. Nothing was changed.`, {
        hint: 'Pass keep_source: true, or leave it out of term_ids.',
      });
  }
  const [targets, holders, types, targetMeta, children] = await Promise.all([
    Promise.all(chunk(sources.map((t) => t.slug), 100).map((slug) => client.all<RawTerm>(to.route, { slug, _fields: FIELDS, hide_empty: false, per_page: 100 }))),
    holdersWithTypes(client, from, ids),
    taxonomyPostTypes(client, to.taxonomy),
    registeredTermMeta(client, to),
    from.hierarchical ? childrenOf(client, from, ids) : new Map<number, number[]>(),
  ]);
  const bySlug = new Map(targets.flat().map((t) => [t.slug, { ...t, name: decodeEntities(t.name) }]));
  const matched = new Map<number, RawTerm>();
  for (const source of sources) {
    const target = bySlug.get(source.slug);
    if (target) matched.set(source.id, target);
  }
  const on = new Set([...types.routes.map((r) => r.type), ...types.hidden]);
  const movable = holders.filter((h) => h.type !== null && on.has(h.type));
  return { from, to, sources, matched, holders, movable, targetMeta: new Set(Object.keys(targetMeta)), keepSource: params.keep_source ?? false, fallback, children };
}

/** Each source's children: the plugin's usage says which have any (one request), then one request each of those. */
async function childrenOf(client: WordPressClient, kind: TermKind, ids: number[]): Promise<Map<number, number[]>> {
  const parents = (await hasCompanion(client, 'term-usage'))
    ? (await termUsage(client, kind.taxonomy, { include: ids })).filter((t) => t.children > 0).map((t) => t.id)
    : ids;
  const lists = await mapLimit(parents, client.concurrency, (parent) =>
    client.all<{ id: number }>(kind.route, { parent, _fields: 'id', hide_empty: false, orderby: 'id' }),
  );
  return new Map(parents.map((parent, i) => [parent, (lists[i] ?? []).map((t) => t.id)]).filter(([, list]) => (list as number[]).length) as Array<[number, number[]]>);
}

/** Objects holding any of the terms, with their post type (the plugin says; else each REST route's type). */
async function holdersWithTypes(client: WordPressClient, kind: TermKind, ids: number[]): Promise<Holder[]> {
  if (await hasCompanion(client, 'post-terms/read')) {
    const pages = [];
    for (const termIds of chunk(ids, 500))
      pages.push(await client.all<Holder>('/cms-admin/v1/post-terms', { taxonomy: kind.taxonomy, term_ids: termIds, per_page: 500 }));
    return [...new Map(pages.flat().map((h) => [h.id, h])).values()];
  }
  const { routes } = await taxonomyPostTypes(client, kind.taxonomy);
  const typeOf = new Map(routes.map((r) => [r.route, r.type]));
  return (await postsWithAnyTerm(client, kind, ids)).map((p) => ({ id: p.id, type: typeOf.get(p.route) ?? null, terms: p.terms }));
}

/**
 * The journal's scope: the target taxonomy (matched terms; the movable objects, whose target
 * terms an interrupted migration's undo reads; what it creates, by slug: `locate`), the source
 * under `also` (the sources and their children, every object holding them).
 */
export function migrateScope(plan: MigratePlan) {
  const sourceIds = plan.sources.map((t) => t.id);
  const matched = [...new Set([...plan.matched.values()].map((t) => t.id))];
  return {
    taxonomy: taxonomyRef(plan.to),
    terms: matched,
    posts: plan.movable.map((h) => h.id),
    postTerms: matched,
    also: {
      taxonomy: taxonomyRef(plan.from),
      terms: [...sourceIds, ...[...plan.children.values()].flat().filter((id) => !sourceIds.includes(id))],
      posts: plan.holders.map((h) => h.id),
      postTerms: plan.fallback === undefined ? sourceIds : [...sourceIds, plan.fallback],
    },
  };
}
