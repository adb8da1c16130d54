import { type Query, serializeQuery } from './http-helpers.js';

/**
 * Where a site's REST API lives, and URLs below it.
 *
 * WordPress advertises its REST root in a `Link: <…>; rel="https://api.w.org/"` header on every
 * front-end page (rest_output_link_header(), wp-includes/rest-api.php). get_rest_url() makes it
 * `<home>/wp-json/` with pretty permalinks, `<home>/index.php/wp-json/` with PATHINFO ones and
 * `<home>/?rest_route=/` with plain permalinks, where /wp-json/ does not route.
 */
export function defaultRoot(siteUrl: string): string {
  return `${siteUrl}/wp-json/`;
}

export function restRouteRoot(siteUrl: string): string {
  return `${siteUrl}/?rest_route=/`;
}

/** The REST root from a response's Link header, if it advertises one. */
export function linkedRoot(link: unknown): string | undefined {
  const header = Array.isArray(link) ? link.join(', ') : typeof link === 'string' ? link : '';
  const match = /<([^>]+)>\s*;\s*rel="https:\/\/api\.w\.org\/"/.exec(header);
  return match?.[1];
}

/**
 * The URL of `path` (e.g. `/wp/v2/categories`, which may carry its own `?query`) below `root`.
 * With plain permalinks the route goes in `rest_route` and every query parameter beside it.
 */
export function restUrl(root: string, path: string, query: Query = {}): string {
  const [route = '/', ownQuery = ''] = path.split(/\?(.*)/s, 2);
  const url = new URL(root);
  if (url.searchParams.has('rest_route')) url.searchParams.set('rest_route', route);
  else url.pathname = url.pathname.replace(/\/+$/, '') + route;
  const extra = [url.search.slice(1), ownQuery, serializeQuery(query)].filter(Boolean).join('&');
  url.search = extra ? `?${extra}` : '';
  return url.toString();
}

/** The root that `to` implies when a redirect kept the request's route: `from` = `root` + tail. */
export function redirectedRoot(root: string, from: string, to: string): string | undefined {
  if (!from.startsWith(root.replace(/\/+$/, ''))) return undefined;
  const fromUrl = new URL(from);
  const toUrl = new URL(to);
  if (fromUrl.search !== toUrl.search) return undefined;
  const rootPath = new URL(root).pathname.replace(/\/+$/, '');
  const tail = fromUrl.pathname.slice(rootPath.length);
  if (!toUrl.pathname.endsWith(tail)) return undefined;
  const base = `${toUrl.origin}${toUrl.pathname.slice(0, toUrl.pathname.length - tail.length)}`;
  return `${base.replace(/\/+$/, '')}/${new URL(root).search}`;
}
