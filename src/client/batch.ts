import { chunk, mapLimit } from './concurrency.js';
import { WordPressError } from './errors.js';
import { plainText } from './html-text.js';

/** One write inside a `/batch/v1` request (https://make.wordpress.org/core/2020/11/20/rest-api-batch-framework-in-wordpress-5-6/). */
export interface BatchRequest {
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Route without the REST prefix, e.g. `/wp/v2/posts/12`. */
  path: string;
  body?: Record<string, unknown>;
}

export type BatchItemResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number | undefined; error: WordPressError };

/** What batching needs of the client (not the client's class: that would be an import cycle). */
export interface BatchTransport {
  readonly concurrency: number;
  post<T>(path: string, body?: unknown): Promise<T>;
}

/** WordPress's default `rest_get_max_batch_size()`. */
export const BATCH_SIZE = 25;

interface BatchResponse {
  responses?: Array<{ status?: number; body?: unknown; headers?: unknown }>;
}

/**
 * Sends writes in chunks of 25. There is no transaction: every item gets its own result, and
 * a chunk that fails as a whole (timeout, 500) marks each of its items failed rather than
 * losing them. Batches are never retried blindly: a timed-out batch may have been applied.
 */
export async function sendBatches(client: BatchTransport, requests: readonly BatchRequest[]): Promise<BatchItemResult[]> {
  const chunks = chunk(requests, BATCH_SIZE);
  const results = await mapLimit(chunks, client.concurrency, (items) => sendChunk(client, items));
  return results.flat();
}

async function sendChunk(client: BatchTransport, items: BatchRequest[]): Promise<BatchItemResult[]> {
  let response: BatchResponse;
  try {
    response = await client.post<BatchResponse>('/batch/v1', {
      validation: 'normal',
      requests: items.map((item) => ({ method: item.method ?? 'POST', path: item.path, body: item.body ?? {} })),
    });
  } catch (err) {
    if (!(err instanceof WordPressError)) throw err;
    return items.map(() => ({ ok: false, status: err.status, error: err }));
  }
  return items.map((item, index) => toItemResult(item, response.responses?.[index]));
}

function toItemResult(item: BatchRequest, raw: { status?: number; body?: unknown } | undefined): BatchItemResult {
  const method = item.method ?? 'POST';
  if (!raw) {
    return {
      ok: false,
      status: undefined,
      error: new WordPressError({ code: 'batch_missing_response', message: 'WordPress returned no result for this item of the batch.', request: { method, url: item.path } }),
    };
  }
  const status = raw.status ?? 500;
  if (status < 400) return { ok: true, status, body: raw.body };
  const body = (raw.body ?? {}) as { code?: string; message?: string; data?: unknown };
  return {
    ok: false,
    status,
    error: new WordPressError({
      status,
      code: body.code ?? `http_${status}`,
      message: plainText(body.message ?? `HTTP ${status}`),
      data: body.data,
      request: { method, url: item.path },
    }),
  };
}
