import { chunk, decodeEntities, type WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE } from '../companion.js';

/**
 * The companion plugin's clean-up routes (0.6.0, includes/term-cleanup.php): which terms are
 * used by how many objects of every type and status, a prune that checks each term again just
 * before deleting it, and WordPress's own recount. WordPress's `count` is published posts only.
 */
export interface TermUsage {
  id: number;
  name: string;
  slug: string;
  parent: number;
  /** WordPress's stored count (published posts). */
  count: number;
  /** Objects of every type and status holding it (auto-drafts aside). */
  objects: number;
  children: number;
  last_used_gmt: string | null;
}

export interface UsageFilters {
  max_objects?: number;
  search?: string;
  older_than?: string;
  exclude?: number[];
  include?: number[];
  childless?: boolean;
}

const USAGE = `/${COMPANION_NAMESPACE}/term-usage`;

/** Every term of the taxonomy matching the filters, by name (500 a request). */
export async function termUsage(client: WordPressClient, taxonomy: string, filters: UsageFilters = {}): Promise<TermUsage[]> {
  const query = { taxonomy, ...filters, childless: filters.childless ? 1 : undefined, per_page: 500 };
  const pages = filters.include
    ? await Promise.all(chunk(filters.include, 500).map((include) => client.all<TermUsage>(USAGE, { ...query, include })))
    : [await client.all<TermUsage>(USAGE, query)];
  return pages.flat().map((term) => ({ ...term, name: decodeEntities(term.name) }));
}

export interface PruneAnswer {
  deleted: number[];
  kept: Array<{ id: number; reason: string }>;
}

/** Deletes the terms still used by at most `maxObjects` objects (500 a request). */
export async function pruneRoute(
  client: WordPressClient,
  taxonomy: string,
  ids: readonly number[],
  maxObjects: number,
  includeParents: boolean,
): Promise<PruneAnswer> {
  const out: PruneAnswer = { deleted: [], kept: [] };
  for (const termIds of chunk([...ids], 500)) {
    const answer = await client.post<PruneAnswer>(`/${COMPANION_NAMESPACE}/terms/prune`, {
      taxonomy,
      term_ids: termIds,
      max_objects: maxObjects,
      include_parents: includeParents,
    });
    out.deleted.push(...answer.deleted);
    out.kept.push(...answer.kept);
  }
  return out;
}

export interface RecountAnswer {
  checked: number;
  changed: Array<{ id: number; name: string; from: number; to: number }>;
}

export async function recountRoute(client: WordPressClient, taxonomy: string, ids?: readonly number[]): Promise<RecountAnswer> {
  const answer = await client.post<RecountAnswer>(`/${COMPANION_NAMESPACE}/terms/recount`, {
    taxonomy,
    ...(ids ? { term_ids: ids } : {}),
  });
  return { ...answer, changed: answer.changed.map((c) => ({ ...c, name: decodeEntities(c.name) })) };
}
