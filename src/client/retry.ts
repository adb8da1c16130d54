/**
 * Retry policy for requests that are safe to repeat.
 *
 * Only idempotent requests (GET/HEAD, or ones a caller marks idempotent) are retried: a POST
 * that timed out may still have been applied by WordPress, so repeating it could create a
 * second term or user. Retry-After is honoured as RFC 9110 §10.2.3 defines it (seconds or
 * an HTTP date).
 */
// 500 too: for a read it is often a passing fault (a PHP worker killed, a database connection
// lost); repeating a read is harmless, and a real bug simply fails again.
export const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
// A timeout is not retried: a site that let one request hang for the whole timeout would
// make the caller wait several timeouts in all. Fast failures (reset, refused) are retried.
export const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN']);

/**
 * A success whose body is JSON cut off (an answer truncated by a proxy, or a connection closed
 * after a short Content-Length): worth repeating for a read, never taken for data.
 */
export function cutJson(status: number, body: string): boolean {
  return status < 300 && /^\s*[[{]/.test(body.replace(/^\uFEFF/, ''));
}

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 200, maxDelayMs: 5_000 };

export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function backoffMs(attempt: number, policy: RetryPolicy, retryAfter?: number): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, policy.maxDelayMs);
  const exponential = policy.baseDelayMs * 2 ** attempt;
  const jitter = Math.random() * policy.baseDelayMs;
  return Math.min(exponential + jitter, policy.maxDelayMs);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
