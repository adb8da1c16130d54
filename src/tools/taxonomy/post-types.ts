import type { WordPressClient } from '../../client/index.js';

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

const cache = new WeakMap<WordPressClient, Map<string, Promise<PostTypeRoute[]>>>();

/**
 * The post types `taxonomy` is registered for (register_taxonomy_for_object_type() adds pages
 * or custom types), as REST collections; cached per client like the namespaces. A site where
 * the taxonomy is on posts only costs one small request, once.
 */
export function postTypeRoutes(client: WordPressClient, taxonomy: string): Promise<PostTypeRoute[]> {
  const byTaxonomy = cache.get(client) ?? new Map<string, Promise<PostTypeRoute[]>>();
  cache.set(client, byTaxonomy);
  let routes = byTaxonomy.get(taxonomy);
  if (!routes) {
    routes = lookUp(client, taxonomy);
    byTaxonomy.set(taxonomy, routes);
    routes.catch(() => byTaxonomy.delete(taxonomy));
  }
  return routes;
}

async function lookUp(client: WordPressClient, taxonomy: string): Promise<PostTypeRoute[]> {
  const { types = ['post'] } = await client.get<{ types?: string[] }>(`/wp/v2/taxonomies/${taxonomy}`, {
    _fields: 'types',
  });
  if (types.length === 1 && types[0] === 'post') return [POSTS];
  // An object keyed by type slug; types hidden from REST are absent (their posts cannot be reached).
  const all = await client.get<Record<string, { rest_base?: string; rest_namespace?: string }>>('/wp/v2/types');
  return types.flatMap((type) => {
    const info = all[type];
    if (!info) return [];
    const route = `/${info.rest_namespace ?? 'wp/v2'}/${info.rest_base ?? type}`;
    return [{ type, route, statuses: type === 'attachment' ? ATTACHMENT_STATUSES : POST_STATUSES }];
  });
}
