import { redactUrl, WordPressError } from './errors.js';

/** At most this many redirects per request, as browsers and curl cap them too. */
export const MAX_REDIRECTS = 5;

/**
 * Whether a redirect may be followed. Reads (GET/HEAD) follow any redirect on the same host
 * name; writes only 307/308, which keep method and body (RFC 9110 §15.4): a 301/302 turns a
 * POST into a GET in every HTTP client, so the write would be lost while the site answers 200.
 * Credentials never follow to another host, nor from https down to http.
 */
export function redirectRefusal(method: string, status: number, from: string, to: string): WordPressError | undefined {
  const a = new URL(from);
  const b = new URL(to);
  const read = method === 'GET' || method === 'HEAD';
  const site = `${b.origin}${b.pathname.replace(/\/wp-json\/.*$|\/$/, '')}`;
  const request = { method, url: redactUrl(from) };
  const moved = `WordPress redirected ${method} ${redactUrl(from)} (HTTP ${status}) to ${redactUrl(to)}`;
  if (a.hostname !== b.hostname || (a.protocol === 'https:' && b.protocol === 'http:')) {
    return new WordPressError({
      status,
      code: 'site_redirects',
      message: `${moved}, another address: the application password is not sent there.`,
      request,
      hint: `Set CMS_URL to the site’s canonical address (probably ${redactUrl(site)}).`,
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
