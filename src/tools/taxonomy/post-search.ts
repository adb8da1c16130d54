import { decodeEntities, type Query, type WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import type { ListSource } from '../answers/page.js';
import { parseIsoDate } from '../users/dates.js';
import { POST_STATUSES } from './post-types.js';
import { resolveTaxonomy } from './taxonomies.js';
import { missingTermIds, termNotFound } from './terms.js';

export interface PostFilters {
  search?: string;
  post_type?: string;
  status?: string;
  taxonomy?: string;
  term_ids?: number[];
  no_terms?: boolean;
  author?: number;
  after?: string;
  before?: string;
}

export interface FoundPost {
  id: number;
  title: string;
  type: string;
  status: string;
  date: string;
  author: number;
}

type RestType = { slug: string; rest_base?: string; rest_namespace?: string; taxonomies?: string[] };
const typeCache = new WeakMap<WordPressClient, Promise<Record<string, RestType>>>();

/** The post type's REST route and taxonomies (/wp/v2/types, read once per client). */
async function postType(client: WordPressClient, slug: string): Promise<{ route: string; taxonomies: string[] }> {
  let types = typeCache.get(client);
  if (!types) {
    types = client.get<Record<string, RestType>>('/wp/v2/types');
    typeCache.set(client, types);
    types.catch(() => typeCache.delete(client));
  }
  const type = (await types)[slug];
  if (!type) {
    const known = Object.keys(await types).sort();
    throw new ToolError('post_type_not_found', `No post type "${slug}" in the site's REST API. Types: ${known.join(', ')}.`, {
      hint: 'Use one of the listed slugs, e.g. post or page.',
      details: { post_types: known },
    });
  }
  return { route: `/${type.rest_namespace || 'wp/v2'}/${type.rest_base || slug}`, taxonomies: type.taxonomies ?? [] };
}

/** Statuses asked for: one, `any` (trash included), or by default every status but trash. */
function statuses(status: string | undefined): string[] {
  if (status === 'any') return [...POST_STATUSES];
  if (status) return [status];
  return POST_STATUSES.filter((s) => s !== 'trash');
}

/**
 * The posts matching every filter given, newest first (by id: ids only grow, while dates can
 * tie and shift offset pages). Term filters take the taxonomy's REST base as the query param.
 */
export async function postSource(client: WordPressClient, filters: PostFilters): Promise<ListSource<FoundPost>> {
  const typeSlug = filters.post_type ?? 'post';
  const type = await postType(client, typeSlug);
  const query: Query = {
    context: 'edit',
    _fields: 'id,title,type,status,date,author',
    orderby: 'id',
    order: 'desc',
    status: statuses(filters.status),
    search: filters.search,
    author: filters.author,
    after: filters.after && new Date(parseIsoDate(filters.after, 'after')).toISOString(),
    before: filters.before && new Date(parseIsoDate(filters.before, 'before')).toISOString(),
  };
  if (filters.taxonomy) {
    const kind = await resolveTaxonomy(client, filters.taxonomy);
    if (!type.taxonomies.includes(kind.taxonomy)) {
      throw new ToolError('taxonomy_not_on_type', `The taxonomy ${kind.taxonomy} is not registered for ${typeSlug}.`, {
        hint: 'Choose a post_type the taxonomy is on (list-taxonomies with full: true shows its types).',
      });
    }
    if (filters.term_ids?.length) {
      const missing = await missingTermIds(client, kind, filters.term_ids);
      if (missing.length) throw termNotFound(kind, missing);
      query[kind.postsParam] = filters.term_ids;
    }
    if (filters.no_terms) {
      // No "has no terms" query in REST: exclude every term of the taxonomy (WP_Query NOT IN).
      const all = await client.all<{ id: number }>(kind.route, { _fields: 'id', hide_empty: false, per_page: 100 });
      if (all.length) query[`${kind.postsParam}_exclude`] = all.map((term) => term.id);
    }
  } else if (filters.term_ids || filters.no_terms) {
    throw new ToolError('taxonomy_required', 'term_ids and no_terms need taxonomy.', {
      hint: 'Add taxonomy, e.g. post_tag or category.',
    });
  }
  const toPost = (raw: Record<string, unknown>): FoundPost => ({
    id: Number(raw.id),
    title: decodeEntities((raw.title as { raw?: string } | undefined)?.raw ?? ''),
    type: String(raw.type ?? typeSlug),
    status: String(raw.status ?? ''),
    date: String(raw.date ?? ''),
    author: Number(raw.author ?? 0),
  });
  return {
    key: (post) => -post.id,
    fetch: async (window) => {
      const { items, total } = await client.window<Record<string, unknown>>(type.route, query, window);
      return { items: items.map(toPost), total };
    },
  };
}
