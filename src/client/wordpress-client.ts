import { type BatchItemResult, type BatchRequest, sendBatches } from './batch.js';
import { type CurrentUser, fetchCurrentUser } from './current-user.js';
import { redactUrl, redactUrlsIn, WordPressError } from './errors.js';
import { insecureHttpAllowed, insecureHttpProblem } from './insecure-http.js';
import { numberHeader, type Query } from './http-helpers.js';
import { count, pages } from './paging.js';
import { jsonError, notJsonError, type RawResponse } from './response.js';
import { type CollectionWindow, fetchWindow } from './window.js';
import {
  backoffMs,
  cutJson,
  DEFAULT_RETRY,
  RETRYABLE_NETWORK_CODES,
  RETRYABLE_STATUS,
  type RetryPolicy,
  retryAfterMs,
  sleep,
} from './retry.js';
import { type Sent, Transport } from './transport.js';

export type { CollectionWindow, CurrentUser, Query };

export interface WordPressClientOptions {
  /** Site address, e.g. `https://example.com` or `https://example.com/blog`; the REST root is discovered. */
  url: string;
  username: string;
  /** An application password (Users → Profile → Application Passwords). */
  appPassword: string;
  timeoutMs?: number;
  /** Concurrent requests for extra pages and batch chunks. */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Top-level fields of the REST index to cache with `namespaces` (e.g. a plugin's own); see `index()`. */
  indexFields?: readonly string[];
  /** Where notes about the site's setup go, once each (redirects, PHP notices, stripped headers). Default: stderr. */
  onWarning?: (message: string) => void;
  /**
   * Where the username and application password were given, as a login error names them, e.g.
   * "CMS_USERNAME and CMS_APP_PASSWORD". Default: "the username and application password given".
   */
  credentialsFrom?: string;
  /**
   * Send the application password over plain `http:` to another machine (insecure-http.ts);
   * default env CMS_ALLOW_INSECURE_HTTP=1, else refused: loopback addresses need nothing.
   */
  allowInsecureHttp?: boolean;
}

export interface WpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Route below the REST root, e.g. `/wp/v2/categories` (may carry its own `?query`). */
  path: string;
  query?: Query;
  body?: unknown;
  /** Safe to repeat after a timeout or 503 (GET and HEAD always are). */
  idempotent?: boolean;
}

export interface WpResponse<T> {
  data: T;
  status: number;
  /** `X-WP-Total`; `undefined` when the site (or a proxy in front of it) does not send it. */
  total: number | undefined;
  /** `X-WP-TotalPages`; `undefined` when not sent. `pages()`/`all()`/`count()` cope without it. */
  totalPages: number | undefined;
}

export interface RestIndex {
  namespaces: string[];
  [field: string]: unknown;
}

export interface ClientStats {
  requests: number;
  retries: number;
}

/**
 * A small WordPress REST client: auth, timeouts, keep-alive, retries of idempotent requests,
 * pagination and batch writes. Every response becomes data or a WordPressError here (see
 * response.ts): never an HTML page taken for data. It knows WordPress and HTTP, nothing about tools.
 */
/** Ids a request's `include` carries at most (`all()` asks more in turns). */
const INCLUDE_CHUNK = 100;

export class WordPressClient {
  readonly siteUrl: string;
  readonly username: string;
  /** What a login error tells the person to fix (WordPressClientOptions.credentialsFrom). */
  readonly credentialsFrom: string;
  readonly concurrency: number;
  /** How long a request may take before the client gives up on it (bulk writes size their work under it). */
  readonly timeoutMs: number;
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  /** Every warning given so far (each once). */
  readonly warnings: string[] = [];
  readonly #transport: Transport;
  readonly #retry: RetryPolicy;
  readonly #onWarning: (message: string) => void;
  readonly #warned = new Set<string>();
  #me: Promise<CurrentUser> | undefined;
  #index: Promise<RestIndex> | undefined;
  readonly #indexFields: string;
  /** The REST index's top-level fields `index()` reads and caches (`namespaces` and `indexFields`). */
  readonly indexFields: readonly string[];

  constructor(options: WordPressClientOptions) {
    // Refused before any request: the first one would carry the password (issue #48).
    const insecure = (options.allowInsecureHttp ?? insecureHttpAllowed()) ? undefined : insecureHttpProblem(options.url);
    if (insecure) throw new WordPressError({ code: 'insecure_http', message: insecure });
    // Credentials in the URL are never sent (the application password is) nor shown.
    this.siteUrl = redactUrl(options.url).replace(/\/+$/, '');
    this.username = options.username;
    this.credentialsFrom = options.credentialsFrom ?? 'the username and application password given';
    this.concurrency = options.concurrency ?? 4;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.indexFields = ['namespaces', ...(options.indexFields ?? [])];
    this.#indexFields = this.indexFields.join(',');
    this.#onWarning = options.onWarning ?? ((message) => process.stderr.write(`cms-admin: warning: ${message}\n`));
    this.#transport = new Transport({
      siteUrl: this.siteUrl,
      username: options.username,
      appPassword: options.appPassword,
      timeoutMs: this.timeoutMs,
      concurrency: this.concurrency,
      onRequest: () => {
        this.stats.requests++;
      },
      warnOnce: (key, message) => this.warnOnce(key, message),
    });
  }

  async request<T>(req: WpRequest): Promise<WpResponse<T>> {
    const method = req.method ?? 'GET';
    const idempotent = req.idempotent ?? (method === 'GET' || method === 'HEAD');
    for (let attempt = 0; ; attempt++) {
      let sent: Sent;
      try {
        sent = await this.#transport.send(method, req.path, req.query, req.body);
      } catch (err) {
        if (!(err instanceof WordPressError)) throw err;
        if (idempotent && attempt < this.#retry.maxRetries && RETRYABLE_NETWORK_CODES.has(err.code)) {
          await this.#backoff(attempt);
          continue;
        }
        throw err;
      }
      const { raw, parsed, url } = sent;
      if (parsed.kind === 'json' && (raw.status < 300 || (method === 'HEAD' && raw.status < 400))) {
        return this.#answer(raw, parsed.value as T);
      }
      if (method === 'HEAD' && parsed.kind === 'empty' && raw.status < 300) return this.#answer(raw, undefined as T);
      const error =
        parsed.kind === 'json' ? jsonError(raw, parsed.value, method, url) : notJsonError(raw, parsed, method, url);
      const passing = RETRYABLE_STATUS.has(raw.status) || (parsed.kind === 'other' && cutJson(raw.status, raw.body));
      if (idempotent && attempt < this.#retry.maxRetries && passing && error.code !== 'site_maintenance') {
        await this.#backoff(attempt, retryAfterMs(raw.headers['retry-after'] as string | undefined));
        continue;
      }
      if (error.code === 'rest_no_route') this.forgetNamespaces();
      throw error;
    }
  }

  #answer<T>(raw: RawResponse, data: T): WpResponse<T> {
    return {
      data,
      status: raw.status,
      total: numberHeader(raw.headers['x-wp-total']),
      totalPages: numberHeader(raw.headers['x-wp-totalpages']),
    };
  }

  async #backoff(attempt: number, retryAfter?: number): Promise<void> {
    this.stats.retries++;
    await sleep(backoffMs(attempt, this.#retry, retryAfter));
  }

  /** Gives a warning about the site's setup once per client. */
  warnOnce(key: string, raw: string): void {
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    const message = redactUrlsIn(raw);
    this.warnings.push(message);
    this.#onWarning(message);
  }

  async get<T>(path: string, query?: Query): Promise<T> {
    return (await this.request<T>({ path, query })).data;
  }

  async post<T>(path: string, body?: unknown, query?: Query): Promise<T> {
    return (await this.request<T>({ method: 'POST', path, body, query })).data;
  }

  async delete<T>(path: string, query?: Query): Promise<T> {
    return (await this.request<T>({ method: 'DELETE', path, query })).data;
  }

  /**
   * Every page of a collection, in order (see paging.ts). Pass `concurrency: 1` when the
   * caller may stop early (e.g. a date cutoff) so no page is fetched in vain.
   */
  pages<T>(path: string, query: Query = {}, options: { concurrency?: number } = {}): AsyncGenerator<T[]> {
    return pages<T>(this, path, query, options);
  }

  /**
   * All items of a collection (every page). An `include` of more than 100 ids is asked 100 at a
   * time: WordPress repeats the whole query in each page's Link header, and a thousand ids there
   * overflow Node's 16 KiB limit on response headers (HPE_HEADER_OVERFLOW).
   */
  async all<T>(path: string, query: Query = {}): Promise<T[]> {
    const include = query.include;
    if (Array.isArray(include) && include.length > INCLUDE_CHUNK) {
      const items: T[] = [];
      for (let at = 0; at < include.length; at += INCLUDE_CHUNK)
        items.push(...(await this.all<T>(path, { ...query, include: include.slice(at, at + INCLUDE_CHUNK) })));
      return items;
    }
    const items: T[] = [];
    for await (const page of this.pages<T>(path, query)) items.push(...page);
    return items;
  }

  /**
   * One window of a collection (`offset`, `count` items) and its total: for tools that answer
   * a page at a time with a cursor. See window.ts.
   */
  window<T>(path: string, query: Query, window: { offset: number; count: number; knownTotal?: number }) {
    return fetchWindow<T>(this, path, query, window);
  }

  /** Size of a collection (`X-WP-Total`, or counted page by page when a proxy strips it). */
  count(path: string, query: Query = {}): Promise<number> {
    return count(this, path, query);
  }

  /** Writes through `/batch/v1`, 25 per request; one result per request, in order. */
  async batch(requests: readonly BatchRequest[]): Promise<BatchItemResult[]> {
    return sendBatches(this, requests);
  }

  /**
   * The authenticated user. WordPress 6.1 treats a wrong application password as an anonymous
   * visitor, so without this check bad credentials only surface later as a 401 on a write.
   */
  connect(): Promise<CurrentUser> {
    this.#me ??= fetchCurrentUser(this);
    this.#me.catch(() => {
      this.#me = undefined;
    });
    return this.#me;
  }

  /**
   * The REST index (`namespaces` and the `indexFields`), cached: a long-lived process (chat,
   * MCP) re-reads it after a 404 `rest_no_route`, when a plugin's routes may have gone or come.
   */
  index(): Promise<RestIndex> {
    this.#index ??= this.get<RestIndex>('/', { _fields: this.#indexFields });
    this.#index.catch(() => {
      this.#index = undefined;
    });
    return this.#index;
  }

  /** REST namespaces the site offers (e.g. to detect the companion plugin). */
  async namespaces(): Promise<string[]> {
    return (await this.index()).namespaces ?? [];
  }

  /** Drops the cached namespaces, e.g. after a plugin route answered 404 `rest_no_route`. */
  forgetNamespaces(): void {
    this.#index = undefined;
  }
}
