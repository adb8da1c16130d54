import { chunk, type WordPressClient } from '../../client/index.js';
import { requireCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import { type TermUsage, termUsage } from './cleanup-routes.js';
import { postsWithAnyTerm } from './post-terms.js';
import { resolveTaxonomy } from './taxonomies.js';
import type { TermKind } from './terms.js';

export interface PruneParams {
  taxonomy: string;
  max_posts?: number;
  search?: string;
  older_than?: string;
  exclude_ids?: number[];
  include_parents?: boolean;
}

export interface PrunePlan {
  kind: TermKind;
  terms: TermUsage[];
  maxObjects: number;
  includeParents: boolean;
  /** Per term used by any object, the objects holding it when planned: one given it since keeps it (#59). */
  holders: Map<number, number[]>;
  /** Per parent (include_parents), its children when planned: WordPress moves them up; one added since keeps it. */
  children: Map<number, number[]>;
}

/** How many terms a question names (by name); the rest are counted. */
export const NAMED = 30;

/**
 * The terms a prune would delete, read from the companion plugin (term-usage): used by at most
 * `max_posts` objects of every type and status, never the default category, never a parent
 * unless `include_parents`. Ordered by name.
 */
export async function planPrune(client: WordPressClient, params: PruneParams): Promise<PrunePlan> {
  const kind = await resolveTaxonomy(client, params.taxonomy);
  await requireCompanion(client, 'prune-terms', 'term-usage');
  const maxObjects = params.max_posts ?? 0;
  const since = params.older_than === undefined ? undefined : Date.parse(params.older_than);
  if (since !== undefined && Number.isNaN(since))
    throw new ToolError('invalid_date', `older_than "${params.older_than}" is not a date.`, { hint: 'Give an ISO date, e.g. 2024-01-31.' });
  const terms = await termUsage(client, kind.taxonomy, {
    max_objects: maxObjects,
    ...(params.search ? { search: params.search } : {}),
    ...(since !== undefined ? { older_than: new Date(since).toISOString() } : {}),
    ...(params.exclude_ids?.length ? { exclude: params.exclude_ids } : {}),
    childless: !params.include_parents,
  });
  const plan: PrunePlan = { kind, terms, maxObjects, includeParents: params.include_parents ?? false, holders: new Map(), children: new Map() };
  const [objects, children] = await Promise.all([holdersOf(client, plan), childrenOf(plan, client)]);
  return { ...plan, holders: objects, children };
}

/** "Tips" (3 posts), … and N more. */
export function namedTerms(terms: readonly TermUsage[]): string {
  const named = terms.slice(0, NAMED).map((t) => `"${t.name}"${t.objects ? ` (${t.objects})` : ''}`);
  return named.join(', ') + (terms.length > NAMED ? ` and ${terms.length - NAMED} more` : '');
}

/** The objects holding each of the plan's used terms (500 term ids a request). */
async function holdersOf(client: WordPressClient, plan: PrunePlan): Promise<Map<number, number[]>> {
  const used = plan.terms.filter((t) => t.objects > 0).map((t) => t.id);
  const out = new Map<number, number[]>();
  for (const ids of chunk(used, 500))
    for (const post of await postsWithAnyTerm(client, plan.kind, ids))
      for (const t of post.terms) if (ids.includes(t)) out.set(t, [...(out.get(t) ?? []), post.id]);
  return out;
}

/** Every object holding a term the plan deletes: journalled for undo. */
export const holders = (plan: PrunePlan) => [...new Set([...plan.holders.values()].flat())];

/** Children of the plan's parents (include_parents): WordPress moves them up, so undo keeps their parent. */
async function childrenOf(plan: PrunePlan, client: WordPressClient): Promise<Map<number, number[]>> {
  const parents = plan.terms.filter((t) => t.children > 0).map((t) => t.id);
  const lists = await Promise.all(
    parents.map((parent) => client.all<{ id: number }>(plan.kind.route, { parent, _fields: 'id', hide_empty: false })),
  );
  return new Map(parents.map((parent, i) => [parent, (lists[i] ?? []).map((t) => t.id)]));
}
