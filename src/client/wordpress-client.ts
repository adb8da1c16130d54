import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { type CurrentUser, fetchCurrentUser } from './current-user.js';
import { httpError, networkError, numberHeader, type Query, serializeQuery } from './http-helpers.js';
import { type BatchItemResult, type BatchRequest, sendBatches } from './batch.js';
import { mapLimit } from './concurrency.js';
import {
  backoffMs,
  DEFAULT_RETRY,
  RETRYABLE_NETWORK_CODES,
  RETRYABLE_STATUS,
  type RetryPolicy,
  retryAfterMs,
  sleep,
} from './retry.js';

export type { CurrentUser, Query };

export interface WordPressClientOptions {
  /** Site address, e.g. `https://example.com` (the REST API is expected under `/wp-json`). */
  url: string;
  username: string;
  /** An application password (Users → Profile → Application Passwords). */
  appPassword: string;
  timeoutMs?: number;
  /** Concurrent requests for extra pages and batch chunks. */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
}


export interface WpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Route below the REST root, e.g. `/wp/v2/categories`. */
  path: string;
  query?: Query;
  body?: unknown;
  /** Safe to repeat after a timeout or 503 (GET and HEAD always are). */
  idempotent?: boolean;
}

export interface WpResponse<T> {
  data: T;
  status: number;
  total: number | undefined;
  totalPages: number | undefined;
}


export interface ClientStats {
  requests: number;
  retries: number;
}

/**
 * A small WordPress REST client: auth, timeouts, keep-alive, retries of idempotent requests,
 * pagination and batch writes. It knows WordPress and HTTP, nothing about tools.
 */
export class WordPressClient {
  readonly siteUrl: string;
  readonly username: string;
  readonly concurrency: number;
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  readonly #http: AxiosInstance;
  readonly #retry: RetryPolicy;
  #me: Promise<CurrentUser> | undefined;
  #index: Promise<{ namespaces: string[] }> | undefined;

  constructor(options: WordPressClientOptions) {
    this.siteUrl = options.url.replace(/\/+$/, '');
    this.username = options.username;
    this.concurrency = options.concurrency ?? 4;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    const agentOptions = { keepAlive: true, maxSockets: this.concurrency * 2 };
    this.#http = axios.create({
      baseURL: `${this.siteUrl}/wp-json`,
      timeout: options.timeoutMs ?? 30_000,
      auth: { username: options.username, password: options.appPassword },
      httpAgent: new http.Agent(agentOptions),
      httpsAgent: new https.Agent(agentOptions),
      headers: { Accept: 'application/json' },
      paramsSerializer: { serialize: serializeQuery },
      // Errors are built from the response below; axios must not throw with config attached.
      validateStatus: () => true,
      maxRedirects: 0,
      // WordPress can prefix JSON with PHP notices on misconfigured sites; parse leniently.
      transitional: { silentJSONParsing: true, forcedJSONParsing: true, clarifyTimeoutError: true },
    });
  }

  async request<T>(req: WpRequest): Promise<WpResponse<T>> {
    const method = req.method ?? 'GET';
    const idempotent = req.idempotent ?? (method === 'GET' || method === 'HEAD');
    const url = `${this.siteUrl}/wp-json${req.path}`;
    for (let attempt = 0; ; attempt++) {
      this.stats.requests++;
      let response: AxiosResponse;
      try {
        response = await this.#http.request({ method, url: req.path, params: req.query, data: req.body });
      } catch (err) {
        const error = networkError(err, method, url);
        if (idempotent && attempt < this.#retry.maxRetries && RETRYABLE_NETWORK_CODES.has(error.code)) {
          this.stats.retries++;
          await sleep(backoffMs(attempt, this.#retry));
          continue;
        }
        throw error;
      }
      if (response.status < 400) {
        return {
          data: response.data as T,
          status: response.status,
          total: numberHeader(response.headers['x-wp-total']),
          totalPages: numberHeader(response.headers['x-wp-totalpages']),
        };
      }
      if (idempotent && attempt < this.#retry.maxRetries && RETRYABLE_STATUS.has(response.status)) {
        this.stats.retries++;
        await sleep(backoffMs(attempt, this.#retry, retryAfterMs(response.headers['retry-after'])));
        continue;
      }
      throw httpError(response, method, url);
    }
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
   * Every page of a collection, in order. Page 1 tells `X-WP-TotalPages`; the rest are
   * fetched `concurrency` at a time. Pass `concurrency: 1` when the caller may stop early
   * (e.g. a date cutoff) so no page is fetched in vain.
   */
  async *pages<T>(path: string, query: Query = {}, options: { concurrency?: number } = {}): AsyncGenerator<T[]> {
    const perPage = Number(query.per_page ?? 100);
    const first = await this.request<T[]>({ path, query: { ...query, per_page: perPage, page: 1 } });
    yield first.data;
    const totalPages = first.totalPages ?? 1;
    const limit = options.concurrency ?? this.concurrency;
    for (let start = 2; start <= totalPages; start += limit) {
      const batch = Array.from({ length: Math.min(limit, totalPages - start + 1) }, (_, i) => start + i);
      const pages = await mapLimit(batch, limit, (page) =>
        this.get<T[]>(path, { ...query, per_page: perPage, page }),
      );
      for (const page of pages) yield page;
    }
  }

  /** All items of a collection (every page). */
  async all<T>(path: string, query: Query = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages<T>(path, query)) items.push(...page);
    return items;
  }

  /** Total of a collection from `X-WP-Total`, fetching one item. */
  async count(path: string, query: Query = {}): Promise<number> {
    const response = await this.request<unknown[]>({ path, query: { ...query, per_page: 1, _fields: 'id' } });
    return response.total ?? response.data.length;
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

  /** REST namespaces the site offers (e.g. to detect the companion plugin). Cached. */
  async namespaces(): Promise<string[]> {
    this.#index ??= this.get<{ namespaces: string[] }>('/', { _fields: 'namespaces' });
    this.#index.catch(() => {
      this.#index = undefined;
    });
    return (await this.#index).namespaces ?? [];
  }
}
