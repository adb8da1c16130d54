import { decodeEntities, type Query, type WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import type { ListSource } from '../answers/page.js';
import { parseIsoDate } from '../users/dates.js';
import { POST_STATUSES } from './post-types.js';
import { resolveTaxonomy } from './taxonomies.js';
import { missingTermIds, termNotFound } from './terms.js';
import { withAuthorLogins } from './post-authors.js';

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
  /** The author's login (post-authors.ts), where the site names the account. */
  author_login?: string;
}

type RestType = { slug: string; rest_base?: string; rest_namespace?: string; taxonomies?: string[] };
type SearchType = { slug: string; route: string; taxonomies: string[] };
const typeCache = new WeakMap<WordPressClient, Promise<Record<string, RestType>>>();

function restTypes(client: WordPressClient): Promise<Record<string, RestType>> {
  let types = typeCache.get(client);
  if (!types) {
    types = client.get<Record<string, RestType>>('/wp/v2/types');
    typeCache.set(client, types);
    types.catch(() => typeCache.delete(client));
  }
  return types;
}

const asSearchType = (slug: string, type: RestType): SearchType => ({
  slug,
  route: `/${type.rest_namespace || 'wp/v2'}/${type.rest_base || slug}`,
  taxonomies: type.taxonomies ?? [],
});

/** The post type's REST route and taxonomies (/wp/v2/types, read once per client). */
async function postType(client: WordPressClient, slug: string): Promise<SearchType> {
  const types = await restTypes(client);
  const type = types[slug];
  if (!type) {
    const known = Object.keys(types).sort();
    throw new ToolError('post_type_not_found', `No post type "${slug}" in the site's REST API. Types: ${known.join(', ')}.`, {
      hint: 'Use one of the listed slugs, e.g. post or page.',
      details: { post_types: known },
    });
  }
  return asSearchType(slug, type);
}

/**
 * What "posts of any type" means without post_type: every type REST shows that holds content
 * (posts, pages, custom types), not media (other statuses) nor WordPress's own site-building
 * types (menu items and the `wp_` ones: blocks, templates, navigation, styles, fonts).
 */
export function isContentType(slug: string): boolean {
  return slug !== 'attachment' && slug !== 'nav_menu_item' && !slug.startsWith('wp_');
}

async function contentTypes(client: WordPressClient): Promise<SearchType[]> {
  const types = await restTypes(client);
  return Object.entries(types)
    .filter(([slug]) => isContentType(slug))
    .map(([slug, type]) => asSearchType(slug, type));
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
  let types = filters.post_type ? [await postType(client, filters.post_type)] : await contentTypes(client);
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
    types = types.filter((type) => type.taxonomies.includes(kind.taxonomy));
    if (!types.length) {
      const on = filters.post_type ? filters.post_type : 'any post type the REST API shows';
      throw new ToolError('taxonomy_not_on_type', `The taxonomy ${kind.taxonomy} is not registered for ${on}.`, {
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
    type: String(raw.type ?? ''),
    status: String(raw.status ?? ''),
    date: String(raw.date ?? ''),
    author: Number(raw.author ?? 0),
  });
  return withAuthorLogins(client, mergedSource(client, types.map((type) => type.route), query, toPost));
}

/**
 * One listing over several collections, newest first by id (ids are unique across post types,
 * so the order is total). A window from `offset` reads the first offset+count of each type and
 * merges them: one request a type for a first page; deeper pages read more (bounded by the total).
 */
function mergedSource(
  client: WordPressClient,
  routes: string[],
  query: Query,
  toPost: (raw: Record<string, unknown>) => FoundPost,
): ListSource<FoundPost> {
  const key = (post: FoundPost) => -post.id;
  if (routes.length === 1) {
    const [route] = routes as [string];
    return {
      key,
      fetch: async (window) => {
        const { items, total } = await client.window<Record<string, unknown>>(route, query, window);
        return { items: items.map(toPost), total };
      },
    };
  }
  return {
    key,
    fetch: async ({ offset, count }) => {
      const windows = await Promise.all(
        routes.map((route) => client.window<Record<string, unknown>>(route, query, { offset: 0, count: offset + count })),
      );
      const merged = windows.flatMap((w) => w.items.map(toPost)).sort((a, b) => b.id - a.id);
      return { items: merged.slice(offset, offset + count), total: windows.reduce((sum, w) => sum + w.total, 0) };
    },
  };
}
