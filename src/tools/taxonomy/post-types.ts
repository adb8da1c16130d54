import { type WordPressClient, WordPressError } from '../../client/index.js';

/** The REST collection of one post type a taxonomy is registered for. */
export interface PostTypeRoute {
  type: string;
  /** e.g. `/wp/v2/posts`, `/wp/v2/pages`, `/wp/v2/books`. */
  route: string;
  /** Every status a term can be held in, trash included. */
  statuses: readonly string[];
}

/**
 * Statuses of posts that hold terms. `status=any` would leave out trash, but a trashed post
 * still holds its terms (and gets them back on restore), so it counts as "in use".
 * https://developer.wordpress.org/reference/classes/wp_query/#status-parameters
 */
export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
// Attachments: the media controller's status enum (WP_REST_Attachments_Controller).
const ATTACHMENT_STATUSES = ['inherit', 'private', 'trash'] as const;

export const POSTS: PostTypeRoute = { type: 'post', route: '/wp/v2/posts', statuses: POST_STATUSES };

/** The post types a taxonomy is on: those REST shows (as routes) and those it does not. */
export interface TaxonomyPostTypes {
  routes: PostTypeRoute[];
  /** Types with show_in_rest false: their posts hold terms REST can neither show nor change. */
  hidden: string[];
}

const cache = new WeakMap<WordPressClient, Map<string, Promise<TaxonomyPostTypes>>>();

/**
 * The post types `taxonomy` is registered for (register_taxonomy_for_object_type() adds pages
 * or custom types), as REST collections; cached per client like the namespaces. A site where
 * the taxonomy is on posts only costs two small requests, once.
 */
export async function postTypeRoutes(client: WordPressClient, taxonomy: string): Promise<PostTypeRoute[]> {
  return (await taxonomyPostTypes(client, taxonomy)).routes;
}

export function taxonomyPostTypes(client: WordPressClient, taxonomy: string): Promise<TaxonomyPostTypes> {
  const byTaxonomy = cache.get(client) ?? new Map<string, Promise<TaxonomyPostTypes>>();
  cache.set(client, byTaxonomy);
  let types = byTaxonomy.get(taxonomy);
  if (!types) {
    types = lookUp(client, taxonomy);
    byTaxonomy.set(taxonomy, types);
    types.catch(() => byTaxonomy.delete(taxonomy));
  }
  return types;
}

async function lookUp(client: WordPressClient, taxonomy: string): Promise<TaxonomyPostTypes> {
  const { types = ['post'] } = await client.get<{ types?: string[] }>(`/wp/v2/taxonomies/${taxonomy}`, {
    _fields: 'types',
  });
  if (types.length === 1 && types[0] === 'post') return { routes: await withStatuses(client, [POSTS]), hidden: [] };
  // An object keyed by type slug; types hidden from REST are absent (their posts cannot be reached).
  const all = await client.get<Record<string, { rest_base?: string; rest_namespace?: string }>>('/wp/v2/types');
  const routes = types.flatMap((type) => {
    const info = all[type];
    if (!info) return [];
    const route = `/${info.rest_namespace ?? 'wp/v2'}/${info.rest_base ?? type}`;
    return [{ type, route, statuses: type === 'attachment' ? ATTACHMENT_STATUSES : POST_STATUSES }];
  });
  return { routes: await withStatuses(client, routes), hidden: types.filter((type) => !all[type]) };
}

type Endpoint = { methods?: string[]; args?: { status?: { items?: { enum?: unknown } } } };

/**
 * Every status each collection takes, from its own schema in its namespace's index (one request
 * per namespace, cut to those routes with `_fields`): statuses a plugin registers
 * (register_post_status(), e.g. `archived`) are in it, while `status=any` leaves them out (not
 * public: "excluded from search"), so a merge would not see their posts. Auto-drafts are no
 * content. An index that does not say keeps the usual statuses.
 * https://developer.wordpress.org/reference/functions/register_post_status/
 */
export async function withStatuses(client: WordPressClient, routes: PostTypeRoute[]): Promise<PostTypeRoute[]> {
  const byNamespace = new Map<string, PostTypeRoute[]>();
  for (const route of routes) {
    const namespace = route.route.slice(0, route.route.lastIndexOf('/'));
    byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), route]);
  }
  const found = new Map<string, Endpoint[]>();
  await Promise.all(
    [...byNamespace].map(async ([namespace, members]) => {
      type Index = { routes?: Record<string, { endpoints?: Endpoint[] }> };
      const index = await client
        .get<Index>(namespace, {
          _fields: members.map((m) => `routes.${m.route}.endpoints`).join(','),
        })
        .catch((err) => {
          // A namespace without an index (404): the usual statuses. Anything else fails the call.
          if (err instanceof WordPressError && err.status !== undefined && err.status < 500) return {} as Index;
          throw err;
        });
      for (const m of members) found.set(m.route, index.routes?.[m.route]?.endpoints ?? []);
    }),
  );
  return routes.map((route) => {
    const list = found.get(route.route)?.find((e) => e.methods?.includes('GET'))?.args?.status?.items?.enum;
    if (!Array.isArray(list)) return route;
    const statuses = list.filter((s): s is string => typeof s === 'string' && s !== 'any' && s !== 'auto-draft');
    return { ...route, statuses: [...new Set([...route.statuses, ...statuses])] };
  });
}
