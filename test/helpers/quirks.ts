import type http from 'node:http';

/**
 * Everyday quirks of real WordPress sites, reproduced by the fault proxy (fault-proxy.ts) in
 * front of the real sandbox: set them per test with `proxy.quirk({...})`.
 */
export interface Quirks {
  /** Redirect matching requests: to another base URL (host/port), or to the same path with a trailing slash. */
  redirect?: {
    status: 301 | 302 | 303 | 307 | 308;
    to?: string;
    trailingSlash?: boolean;
    method?: string;
    path?: RegExp;
  };
  /** Print before every JSON body what display_errors does (PHP notice + deprecation), and/or a UTF-8 BOM. */
  phpOutput?: { notice?: boolean; bom?: boolean };
  /** A caching proxy/CDN that drops X-WP-Total, X-WP-TotalPages and Link. */
  stripTotals?: boolean;
  /** Answer matching requests with an HTML page instead of forwarding them. */
  html?: { status: number; page: 'challenge' | 'maintenance' | 'home'; method?: string; path?: RegExp };
  /** WordPress's maintenance answer through its JSON wp_die handler (REST requests with Accept: application/json). */
  maintenanceJson?: boolean;
  /** Plain permalinks: /wp-json/ is a 404 page; the API answers at ?rest_route=. `advertise`: keep the Link header. */
  restRouteOnly?: { advertise: boolean };
  /** The site lives under this path (e.g. `/blog`); anything else is a 404 page. */
  subPath?: string;
  /** Apache with CGI/FastCGI: the Authorization header never reaches PHP. */
  dropAuthorization?: boolean;
  /** A security plugin closing the REST API to visitors not logged in: this JSON error for requests without credentials. */
  securityPlugin?: { status: number; code: string; message: string };
  /** A hostile or compromised site: every JSON string `from` in its answers reads `to` (any characters: newlines, bidi overrides). */
  forge?: { from: string; to: string };
}

export interface Answer {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: string | Buffer;
}

const PHP_NOTICE =
  '<br />\n<b>Notice</b>:  Undefined index: layout in <b>/var/www/html/wp-content/themes/old-theme/functions.php</b> on line <b>42</b><br />\n' +
  '<br />\n<b>Deprecated</b>:  Function create_function() is deprecated in <b>/var/www/html/wp-content/plugins/legacy/legacy.php</b> on line <b>7</b><br />\n';

export const PAGES = {
  challenge:
    '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta name="robots" content="noindex,nofollow"></head><body><div class="main-wrapper"><h1>Checking if the site connection is secure</h1><p>Enable JavaScript and cookies to continue</p><script>window._cf_chl_opt={cType: "managed"};</script></div></body></html>',
  // wp_maintenance() → wp_die( 'Briefly unavailable…', 'Maintenance', 503 ), wp-includes/load.php
  maintenance:
    '<!DOCTYPE html>\n<html lang="en-US">\n<head>\n\t<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />\n\t<title>Maintenance</title>\n</head>\n<body id="error-page">\n\t<div class="wp-die-message">Briefly unavailable for scheduled maintenance. Check back in a minute.</div></body>\n</html>',
  home: '<!DOCTYPE html><html><head><title>Sandbox &#8211; Just another WordPress site</title></head><body><h1>Hello world!</h1><p>{"not": "data"}</p></body></html>',
  notFound:
    '<!DOCTYPE html><html><head><title>Page not found &#8211; Sandbox</title></head><body><h1>Oops! That page can’t be found.</h1></body></html>',
} as const;

function html(status: number, body: string, extra: http.OutgoingHttpHeaders = {}): Answer {
  return { status, headers: { 'content-type': 'text/html; charset=UTF-8', ...extra }, body };
}

const isRest = (path: string) => path.startsWith('/wp-json') || /[?&]rest_route=/.test(path);

/** Request side: an answer of the proxy's own, or the path and headers to forward. */
export function requestQuirks(
  q: Quirks,
  req: { method: string; path: string; headers: http.IncomingHttpHeaders },
): { answer: Answer } | { path: string; headers: http.IncomingHttpHeaders } {
  let path = req.path;
  const headers = { ...req.headers };
  const r = q.redirect;
  if (r && (!r.method || r.method === req.method) && (!r.path || r.path.test(path))) {
    const [route = '/', search = ''] = path.split(/\?(.*)/s, 2);
    if (r.to) return { answer: html(r.status, '<html><body>Moved</body></html>', { location: `${r.to}${path}` }) };
    if (r.trailingSlash && !route.endsWith('/'))
      return { answer: html(r.status, '', { location: `${route}/${search ? `?${search}` : ''}` }) };
  }
  if (q.subPath) {
    if (path !== q.subPath && !path.startsWith(`${q.subPath}/`) && !path.startsWith(`${q.subPath}?`))
      return { answer: html(404, PAGES.notFound) };
    path = path.slice(q.subPath.length) || '/';
    if (path.startsWith('?')) path = `/${path}`;
  }
  if (q.restRouteOnly && path.startsWith('/wp-json')) return { answer: html(404, PAGES.notFound) };
  const h = q.html;
  if (h && (!h.method || h.method === req.method) && (!h.path || h.path.test(path))) {
    return { answer: html(h.status, PAGES[h.page], h.page === 'maintenance' ? { 'retry-after': '600' } : {}) };
  }
  if (q.maintenanceJson && isRest(path)) {
    const body = {
      code: 'wp_die',
      message: 'Briefly unavailable for scheduled maintenance. Check back in a minute.',
      data: { status: 503 },
      additional_errors: [],
    };
    return {
      answer: {
        status: 503,
        headers: { 'content-type': 'application/json; charset=UTF-8', 'retry-after': '600' },
        body: JSON.stringify(body),
      },
    };
  }
  if (q.dropAuthorization) delete headers.authorization;
  if (q.securityPlugin && isRest(path) && !headers.authorization) {
    const { status, code, message } = q.securityPlugin;
    return {
      answer: {
        status,
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: JSON.stringify({ code, message, data: { status } }),
      },
    };
  }
  return { path, headers };
}

/** Response side: headers and body as the quirky site would send them. */
export function responseQuirks(q: Quirks, res: Answer, urls: { proxy: string; target: string }): Answer {
  const headers = { ...res.headers };
  let body = res.body;
  const site = `${urls.proxy}${q.subPath ?? ''}`;
  for (const name of ['link', 'location'] as const) {
    const value = headers[name];
    if (typeof value === 'string') headers[name] = value.split(urls.target).join(site);
  }
  if (q.restRouteOnly && typeof headers.link === 'string') {
    if (q.restRouteOnly.advertise) headers.link = headers.link.replace(`${site}/wp-json/`, `${site}/?rest_route=/`);
    else delete headers.link;
  }
  if (q.stripTotals) {
    delete headers['x-wp-total'];
    delete headers['x-wp-totalpages'];
    delete headers.link;
  }
  const json = String(headers['content-type'] ?? '').includes('json');
  if (q.forge && json) {
    const inJson = (text: string) => JSON.stringify(text).slice(1, -1);
    body = Buffer.from(Buffer.from(body).toString('utf8').split(inJson(q.forge.from)).join(inJson(q.forge.to)), 'utf8');
  }
  if (q.phpOutput && json) {
    const prefix = `${q.phpOutput.bom ? '\uFEFF' : ''}${q.phpOutput.notice ? PHP_NOTICE : ''}`;
    body = Buffer.concat([Buffer.from(prefix, 'utf8'), Buffer.from(body)]);
  }
  return { status: res.status, headers, body };
}
