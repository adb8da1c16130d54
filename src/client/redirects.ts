import { redactUrl, WordPressError } from './errors.js';
import { sentInClear } from './insecure-http.js';

/** At most this many redirects per request, as browsers and curl cap them too. */
export const MAX_REDIRECTS = 5;

/**
 * Whether a redirect may be followed. Credentials go only to the origin (scheme, host and port)
 * of CMS_URL: a redirect to another port, another host or from https to http is refused, since
 * following it would send the application password there (RFC 6454 origins; a different port
 * on the same host may be another program). Reads (GET/HEAD) follow any redirect within the
 * origin; writes only 307/308, which keep method and body (RFC 9110 §15.4): a 301/302 turns a
 * POST into a GET in every HTTP client, so the write would be lost while the site answers 200.
 */
export function redirectRefusal(
  method: string,
  status: number,
  from: string,
  to: string,
  siteOrigin: string,
): WordPressError | undefined {
  const b = new URL(to);
  const read = method === 'GET' || method === 'HEAD';
  const site = `${b.origin}${b.pathname.replace(/\/wp-json\/.*$|\/$/, '')}`;
  const request = { method, url: redactUrl(from) };
  const moved = `WordPress redirected ${method} ${redactUrl(from)} (HTTP ${status}) to ${redactUrl(to)}`;
  if (b.origin !== siteOrigin) {
    const clear = sentInClear(from);
    return new WordPressError({
      status,
      code: 'site_redirects',
      message: `${moved}, another origin (${b.origin}) than CMS_URL's (${siteOrigin}): the application password is sent only to ${siteOrigin}, so nothing was sent there.${clear ? ` ${clear.said}` : ''}`,
      request,
      hint: `${clear?.fix ?? ''}If the site really lives there, set CMS_URL to its address (probably ${redactUrl(site)}).`,
    });
  }
  if (!read && status !== 307 && status !== 308) {
    return new WordPressError({
      status,
      code: 'write_redirected',
      message: `${moved}; following it would turn the write into a GET, so nothing was written.`,
      request,
      hint: `Set CMS_URL to the address the site redirects to (probably ${redactUrl(site)}), then try again.`,
    });
  }
  return undefined;
}

