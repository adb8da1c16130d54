import { htmlTitle, plainText } from './html-text.js';
import { redactUrl, WordPressError } from './errors.js';

/** A response as it came off the wire: the body is text, parsed here and nowhere else. */
export interface RawResponse {
  status: number;
  statusText?: string;
  headers: Record<string, unknown>;
  body: string;
}

export type ParsedBody =
  | { kind: 'json'; value: unknown /** What came before the JSON, described, if anything did. */; leading?: string }
  | { kind: 'empty' }
  | { kind: 'other'; title?: string; text: string };

const BOM = '\uFEFF';

/**
 * JSON, even after what misconfigured sites print before it: a UTF-8 byte order mark (a PHP
 * file saved with one), blank lines (whitespace after a `?>`), or PHP notices, warnings and
 * deprecations shown because display_errors / WP_DEBUG_DISPLAY is on. Anything else is not
 * data: an HTML page is never parsed into items.
 */
export function parseBody(body: string): ParsedBody {
  const bom = body.startsWith(BOM);
  const text = bom ? body.slice(1) : body;
  const start = text.search(/\S/);
  if (start < 0) return { kind: 'empty' };
  const causes = bom ? ['a UTF-8 byte order mark'] : [];
  if (start > 0 && /[\r\n]/.test(text.slice(0, start))) causes.push('blank lines');
  const direct = tryJson(text);
  if (direct.ok) return { kind: 'json', value: direct.value, ...(causes.length && { leading: causes.join(' and ') }) };
  // PHP output before the JSON: try each `{`/`[` as the start (a notice may itself contain one).
  // Text that itself starts as JSON is JSON cut off, not PHP output: its last complete object
  // is not the answer.
  if (/^[[{]/.test(text.slice(start))) return { kind: 'other', text: plainText(text).slice(0, 200) };
  let tries = 0;
  for (let i = text.indexOf('{', start), j = text.indexOf('[', start); tries < 25; tries++) {
    const at = i < 0 ? j : j < 0 ? i : Math.min(i, j);
    if (at < 0) break;
    const parsed = tryJson(text.slice(at));
    if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) {
      const php = plainText(text.slice(0, at)).slice(0, 160);
      causes.push(`PHP output ("${php}")`);
      return { kind: 'json', value: parsed.value, leading: causes.join(' and ') };
    }
    if (at === i) i = text.indexOf('{', at + 1);
    else j = text.indexOf('[', at + 1);
  }
  return { kind: 'other', title: htmlTitle(text), text: plainText(text).slice(0, 200) };
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** WordPress's wp_maintenance() page (wp-includes/load.php), as HTML or through the JSON wp_die handler. */
export function isMaintenance(status: number, text: string | undefined): boolean {
  return status === 503 && /briefly unavailable for scheduled maintenance/i.test(text ?? '');
}

/** A non-JSON answer as an error that says what came back: never data. */
export function notJsonError(raw: RawResponse, parsed: ParsedBody, method: string, url: string): WordPressError {
  const request = { method, url: redactUrl(url) };
  const page = parsed.kind === 'other' ? parsed : undefined;
  const what = page
    ? `a page${page.title ? ` titled "${page.title}"` : ` starting "${page.text.slice(0, 80)}"`}`
    : 'an empty body';
  if (isMaintenance(raw.status, page?.text)) {
    return maintenanceError(request);
  }
  const hint =
    raw.status === 403 || raw.status === 429 || raw.status === 503
      ? 'A firewall, CDN or security plugin (e.g. Cloudflare, Sucuri, Wordfence) answered instead of WordPress: allow API requests from this machine in its settings, then try again.'
      : raw.status >= 500
        ? 'The server failed before WordPress could answer; check its PHP error log.'
        : 'CMS_URL must be the WordPress site address; opening <CMS_URL>/wp-json/ in a browser must show JSON.';
  return new WordPressError({
    status: raw.status,
    code: raw.status >= 400 ? `http_${raw.status}` : 'not_json',
    message: `WordPress did not answer with JSON: ${method} ${request.url} got HTTP ${raw.status} with ${what}.`,
    request,
    hint,
  });
}

export function maintenanceError(request: { method: string; url: string }): WordPressError {
  return new WordPressError({
    status: 503,
    code: 'site_maintenance',
    message: `The site is in maintenance mode ("Briefly unavailable for scheduled maintenance"): WordPress is updating and answers nothing else meanwhile (${request.method} ${request.url}).`,
    request,
    hint: 'Try again in a minute. If it lasts, an update was interrupted: delete the .maintenance file in the WordPress folder.',
  });
}

/** A JSON error answer (status ≥ 400) as a WordPressError, with a hint where the cause is a known site setup. */
export function jsonError(raw: RawResponse, body: unknown, method: string, url: string): WordPressError {
  const wp = body as { code?: unknown; message?: unknown; data?: unknown } | null;
  const isWpError = typeof wp === 'object' && wp !== null && typeof wp.code === 'string';
  const code = isWpError ? String(wp.code) : `http_${raw.status}`;
  const message =
    isWpError && typeof wp.message === 'string'
      ? plainText(wp.message)
      : `WordPress answered HTTP ${raw.status} ${raw.statusText ?? ''}`.trim();
  const request = { method, url: redactUrl(url) };
  if (isMaintenance(raw.status, message)) return maintenanceError(request);
  return new WordPressError({
    status: raw.status,
    code,
    message,
    data: isWpError ? wp.data : undefined,
    request,
    hint: siteSetupHint(raw.status, code, message),
  });
}

/** The application password in our Authorization header never reached WordPress. */
export const DROPPED_AUTH_HINT =
  'WordPress treated the request as logged out although it carried the application password. Either the password is wrong (check CMS_USERNAME and CMS_APP_PASSWORD), or the web server drops the Authorization header before PHP sees it (Apache with CGI/FastCGI does): add `SetEnvIf Authorization "(.*)" HTTP_AUTHORIZATION=$1` (or `CGIPassAuth On`) to the site’s .htaccess.';

/**
 * Codes security plugins answer with when they close the REST API to visitors who are not
 * logged in: Disable REST API (`rest_cannot_access`, "DRA: Only authenticated users can access
 * the REST API."), the REST API handbook's snippet and many plugins (`rest_not_logged_in`),
 * Disable WP REST API (`rest_login_required`). Our requests are logged in, so seeing one means
 * the credentials did not arrive, or the plugin also blocks this account.
 */
const RESTRICTED_CODES = new Set(['rest_cannot_access', 'rest_login_required', 'rest_api_disabled', 'rest_disabled']);

function siteSetupHint(status: number, code: string, message: string): string | undefined {
  if (code === 'rest_not_logged_in') return DROPPED_AUTH_HINT;
  if ((status === 401 || status === 403) && (RESTRICTED_CODES.has(code) || /\bREST API\b/i.test(message))) {
    return `A security plugin restricts the REST API (${code}). Allow REST API access for this administrator in the plugin’s settings (e.g. Disable REST API, Solid/iThemes Security, All In One WP Security, Wordfence). ${DROPPED_AUTH_HINT}`;
  }
  return undefined;
}
