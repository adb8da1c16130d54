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
  | {
      ok: false;
      status: number | undefined;
      error: WordPressError;
      /**
       * The batch's answer never came (a timeout, a dropped connection): WordPress may have
       * applied this item, or may still (#59.12). Look it up before calling it failed.
       */
      unknown?: true;
    };

/** What batching needs of the client (not the client's class: that would be an import cycle). */
export interface BatchTransport {
  readonly concurrency: number;
  /** The client's request timeout: no batch should come near it. */
  readonly timeoutMs?: number;
  post<T>(path: string, body?: unknown): Promise<T>;
}

/** WordPress's default `rest_get_max_batch_size()`. */
export const BATCH_SIZE = 25;

/** How a request that outlasted the client's timeout fails (http-helpers.ts networkError). */
const TIMEOUT_CODES = ['ETIMEDOUT', 'ECONNABORTED'];

/** A batch should take at most this share of the client's timeout, at the pace of the last one. */
const TIMEOUT_SHARE = 4;

interface BatchResponse {
  responses?: Array<{ status?: number; body?: unknown; headers?: unknown }>;
}

/** Per client and kind of write (the first item's method and route), how long one item took in the last batch. */
const paces = new WeakMap<BatchTransport, Map<string, number>>();

const kindOf = (item: BatchRequest) => `${item.method ?? 'POST'} ${item.path.replace(/\/\d+(?=\/|\?|$)/g, '/{id}').replace(/\?.*$/, '')}`;

/**
 * How many items the next batch takes: as many as fit in a quarter of the client's timeout at
 * the pace the last batch of this kind showed, at most 25; 25 while no batch has shown one.
 */
export function nextBatchSize(timeoutMs: number, msPerItem: number | undefined): number {
  if (msPerItem === undefined) return BATCH_SIZE;
  return Math.max(1, Math.min(BATCH_SIZE, Math.floor(timeoutMs / TIMEOUT_SHARE / Math.max(msPerItem, 1))));
}

/** Whether a failed request may still have been applied: no answer came (not a refused connection). */
export function answerLost(err: WordPressError): boolean {
  return err.status === undefined && !['ECONNREFUSED', 'EAI_AGAIN', 'ENOTFOUND', 'insecure_http'].includes(err.code);
}

/**
 * Sends writes in batches (issue #61: bounded by time, not only by count): the first batch of a
 * kind goes alone, and each next one takes as many items as fit in a quarter of the timeout at
 * the pace the last one showed, so a slow site gets more, smaller requests rather than timed-out
 * ones. There is no transaction: every item gets its own result. A batch whose answer is lost
 * marks its items `unknown` (#59.12: WordPress may have applied them; the caller looks them up);
 * the next batch then goes alone, and after two batches in a row that outlasted the timeout
 * nothing more is sent and the rest fail, not sent. Batches are never retried blindly.
 */
export async function sendBatches(client: BatchTransport, requests: readonly BatchRequest[]): Promise<BatchItemResult[]> {
  const results = new Array<BatchItemResult>(requests.length);
  const timeout = client.timeoutMs ?? 30_000;
  const pace = paces.get(client) ?? new Map<string, number>();
  paces.set(client, pace);
  let next = 0;
  let lostInARow = 0;
  let timedOutInARow = 0;
  let stopped: WordPressError | undefined;
  const sendNext = async (): Promise<void> => {
    const start = next;
    const kind = kindOf(requests[start] as BatchRequest);
    next = Math.min(start + nextBatchSize(timeout, pace.get(kind)), requests.length);
    const items = requests.slice(start, next);
    if (stopped) {
      for (let i = 0; i < items.length; i++) results[start + i] = { ok: false, status: undefined, error: stopped };
      return;
    }
    const began = performance.now();
    const answer = await sendChunk(client, items);
    pace.set(kind, (performance.now() - began) / items.length);
    const lost = answer.some((r) => !r.ok && r.unknown);
    lostInARow = lost ? lostInARow + 1 : 0;
    // Timed out twice in a row, the second sized to a quarter of the timeout: the site is not answering.
    timedOutInARow = answer.some((r) => !r.ok && r.unknown && TIMEOUT_CODES.includes(r.error.code)) ? timedOutInARow + 1 : 0;
    if (timedOutInARow >= 2) stopped ??= notSent(answer);
    for (const [i, r] of answer.entries()) results[start + i] = r;
  };
  // A batch alone while its pace is unknown or the last answer was lost; then as many at once as
  // the client allows, each sized from the pace the last one showed.
  while (next < requests.length) {
    const solo = lostInARow > 0 || !pace.has(kindOf(requests[next] as BatchRequest));
    const wave = solo ? 1 : Math.max(1, client.concurrency);
    await Promise.all(Array.from({ length: wave }, () => (next < requests.length ? sendNext() : undefined)));
  }
  return results;
}

function notSent(answer: BatchItemResult[]): WordPressError {
  const last = answer.find((r) => !r.ok) as Extract<BatchItemResult, { ok: false }>;
  return new WordPressError({
    code: 'batch_not_sent',
    message: `Not sent: the last two batches outlasted the client's timeout (${last.error.message}).`,
    request: last.error.request,
  });
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
    const unknown = answerLost(err) ? { unknown: true as const } : {};
    return items.map(() => ({ ok: false, status: err.status, error: err, ...unknown }));
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
