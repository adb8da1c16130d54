import { createRequire } from 'node:module';
import type { AxiosInstance } from 'axios';
import { axios } from './axios.js';
import { redactUrl, WordPressError } from './errors.js';
import { sentInClear } from './insecure-http.js';
import { MAX_REDIRECTS, redirectRefusal } from './redirects.js';
import { currentAbortSignal } from './abort.js';
import { cancelledError, networkError, type Query } from './http-helpers.js';
import { type ParsedBody, parseBody, type RawResponse } from './response.js';
import { defaultRoot, linkedRoot, redirectedRoot, restRouteRoot, restUrl } from './rest-root.js';

// node:http and node:https are required when the first client is made, not imported: an ES
// import of node:http builds its namespace, whose lazy WebSocket export loads undici, and
// node:https loads tls; a call rejected before any request needs neither (BENCHMARKS.md).
const require = createRequire(import.meta.url);

export interface Sent {
  raw: RawResponse;
  parsed: ParsedBody;
  url: string;
}

export interface TransportOptions {
  siteUrl: string;
  username: string;
  appPassword: string;
  timeoutMs: number;
  concurrency: number;
  /** Called for every HTTP request sent (redirect hops and discovery included). */
  onRequest: () => void;
  warnOnce: (key: string, message: string) => void;
}

/**
 * HTTP for the client: one request as bytes in and a RawResponse out, the redirects it may
 * follow, and where the REST root is. Parsing and retries are the client's.
 */
export class Transport {
  /** The REST root in use: `<site>/wp-json/` until the site shows otherwise. */
  root: string;
  /** Set once the root answered JSON; until then a 404 or HTML answer triggers discovery. */
  rootKnown = false;
  readonly #http: AxiosInstance;
  /** No credentials: for the site's home page, which discovery reads. */
  readonly #plain: AxiosInstance;
  readonly #options: TransportOptions;
  /** The only origin (scheme, host, port) the application password is sent to: CMS_URL's. */
  readonly #origin: string;
  #discovery: Promise<boolean> | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.root = defaultRoot(options.siteUrl);
    this.#origin = new URL(options.siteUrl).origin;
    const agentOptions = { keepAlive: true, maxSockets: options.concurrency * 2 };
    const http = require('node:http') as typeof import('node:http');
    const https = require('node:https') as typeof import('node:https');
    const agents = { httpAgent: new http.Agent(agentOptions), httpsAgent: new https.Agent(agentOptions) };
    this.#plain = axios().create({ timeout: options.timeoutMs, ...agents, validateStatus: () => true, maxRedirects: 0 });
    this.#http = axios().create({
      timeout: options.timeoutMs,
      auth: { username: options.username, password: options.appPassword },
      ...agents,
      headers: { Accept: 'application/json' },
      // Bytes, not text: the body is parsed in one place (parseBody), never leniently by axios,
      // whose own decoding would also drop a BOM before it could be named.
      responseType: 'arraybuffer',
      transformResponse: [(data: unknown) => data],
      // Redirects are followed (or refused) below; errors are built from the response, never
      // from an axios error, whose config carries the Authorization header.
      validateStatus: () => true,
      maxRedirects: 0,
    });
  }

  /**
   * A request to `path` below the REST root, its body parsed. The first answer that shows the
   * root is wrong (a 404 that is not WordPress's, or an HTML page) triggers discovery and one
   * re-send. Network failures throw a WordPressError (never the axios error).
   */
  async send(method: string, path: string, query: Query | undefined, body: unknown): Promise<Sent> {
    for (let rediscovered = false; ; rediscovered = true) {
      const root = this.root;
      const url = restUrl(root, path, query);
      let raw: RawResponse;
      try {
        raw = await this.#exchange(method, url, body);
      } catch (err) {
        throw err instanceof WordPressError ? err : networkError(err, method, url);
      }
      const parsed = parseBody(raw.body);
      const code = parsed.kind === 'json' ? (parsed.value as { code?: unknown } | null)?.code : undefined;
      const wrongRoot = parsed.kind !== 'json' || (raw.status === 404 && !/^rest_/.test(String(code)));
      const suspicious = raw.status === 404 || raw.status < 300;
      if (!this.rootKnown && wrongRoot && suspicious && !rediscovered && (await this.#discover(root))) continue;
      if (parsed.kind === 'json') {
        this.rootKnown = true;
        if (parsed.leading) {
          this.#options.warnOnce(
            'leading-output',
            `${redactUrl(this.#options.siteUrl)} prints ${parsed.leading} before its JSON (PHP display_errors / WP_DEBUG_DISPLAY is on, or a file has stray output); the toolkit skips it. Turn off WP_DEBUG_DISPLAY in wp-config.php.`,
          );
        }
      }
      return { raw, parsed, url };
    }
  }

  /** One request and the redirects it may follow (see redirects.ts). */
  async #exchange(method: string, url: string, body: unknown): Promise<RawResponse> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const signal = currentAbortSignal();
      // Cancelled work sends nothing more (a bulk operation stops between its requests).
      if (signal?.aborted) throw cancelledError(method, current);
      this.#options.onRequest();
      const res = await this.#http.request({ method, url: current, data: body, signal });
      const raw: RawResponse = {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
        body: Buffer.from(res.data ?? '').toString('utf8'),
      };
      const location = res.headers.location as string | undefined;
      if (res.status < 300 || res.status >= 400 || !location || hop >= MAX_REDIRECTS) return raw;
      const target = new URL(location, current).toString();
      const refusal = redirectRefusal(method, res.status, current, target, this.#origin);
      if (refusal) throw refusal;
      const moved = redirectedRoot(this.root, current, target);
      if (moved) this.root = moved;
      const [from, to] = [current, target].map((u) => redactUrl(u).replace(/\?.*$/, ''));
      this.#options.warnOnce(
        'redirect',
        moved
          ? `${redactUrl(this.#options.siteUrl)} redirects (HTTP ${res.status} ${from} → ${to}); the toolkit follows it and sends later requests there directly. Set CMS_URL=${redactUrl(moved).replace(/\/(wp-json\/|\?rest_route=\/)$/, '')} to skip the redirect.`
          : `${redactUrl(this.#options.siteUrl)} redirects REST requests (HTTP ${res.status} ${from} → ${to}, e.g. a trailing-slash rule): reads follow it at one extra request each; writes only follow a 307/308.`,
      );
      current = target;
    }
  }

  /**
   * Finds the REST root the way WordPress advertises it (the Link header of the site address),
   * else `?rest_route=` (plain permalinks). True when the root changed and the request should be re-sent.
   */
  async #discover(failedRoot: string): Promise<boolean> {
    this.#discovery ??= (async () => {
      let advertised: string | undefined;
      try {
        // The home page needs no credentials, so none are sent (wherever its redirects lead).
        this.#options.onRequest();
        const res = await this.#plain.request({
          method: 'HEAD',
          url: `${this.#options.siteUrl}/`,
          maxRedirects: MAX_REDIRECTS,
        });
        advertised = linkedRoot(res.headers.link);
      } catch {
        // No answer from the home page: fall back to ?rest_route= below.
      }
      if (advertised && originOf(advertised) !== this.#origin) throw rootElsewhere(advertised, this.#origin);
      const root = advertised && advertised !== failedRoot ? advertised : restRouteRoot(this.#options.siteUrl);
      if (root === failedRoot) return false;
      this.root = root;
      this.#options.warnOnce(
        'root',
        `${redactUrl(this.#options.siteUrl)} serves its REST API at ${redactUrl(root)}${advertised ? ' (from its Link header)' : ' (plain permalinks)'}; the toolkit uses that.`,
      );
      return true;
    })();
    return this.#discovery;
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * The site advertises its REST API at another origin (another scheme, host or port): sending
 * the application password there could hand it to another program, or in clear text.
 */
function rootElsewhere(advertised: string, origin: string): WordPressError {
  const other = originOf(advertised) ?? redactUrl(advertised);
  // The request that led here (a 404 or a page at the default root) carried the password.
  const clear = sentInClear(origin);
  return new WordPressError({
    code: 'rest_root_elsewhere',
    message: `The site at ${origin} (CMS_URL) advertises its REST API at ${redactUrl(advertised)}, another origin (${other}); the application password is sent only to ${origin}, so nothing was sent there.${clear ? ` ${clear.said}` : ''}`,
    request: { method: 'HEAD', url: `${origin}/` },
    hint: `${clear?.fix ?? ''}If the site really lives at ${other}, set CMS_URL to that address (over https); otherwise fix the site's WordPress Address / Site Address (Settings → General).`,
  });
}
