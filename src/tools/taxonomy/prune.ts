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
  return { kind, terms, maxObjects };
}

/** "Tips" (3 posts), … and N more. */
export function namedTerms(terms: readonly TermUsage[]): string {
  const named = terms.slice(0, NAMED).map((t) => `"${t.name}"${t.objects ? ` (${t.objects})` : ''}`);
  return named.join(', ') + (terms.length > NAMED ? ` and ${terms.length - NAMED} more` : '');
}

/** The objects holding any of the plan's used terms (500 term ids a request): journalled for undo. */
export async function holders(client: WordPressClient, plan: PrunePlan): Promise<number[]> {
  const used = plan.terms.filter((t) => t.objects > 0).map((t) => t.id);
  const lists = [];
  for (const ids of chunk(used, 500)) lists.push(await postsWithAnyTerm(client, plan.kind, ids));
  return [...new Set(lists.flat().map((p) => p.id))];
}

/** Children of the plan's parents (include_parents): WordPress moves them up, so undo keeps their parent. */
export function childrenOf(plan: PrunePlan, client: WordPressClient): Promise<number[]> {
  const parents = plan.terms.filter((t) => t.children > 0).map((t) => t.id);
  if (!parents.length) return Promise.resolve([]);
  return Promise.all(
    parents.map((parent) => client.all<{ id: number }>(plan.kind.route, { parent, _fields: 'id', hide_empty: false })),
  ).then((lists) => lists.flat().map((t) => t.id));
}
