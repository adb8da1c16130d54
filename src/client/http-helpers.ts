import { axios } from './axios.js';
import { redactUrl, WordPressError } from './errors.js';

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** WordPress lists accept comma-separated arrays (`include=1,2,3`), shorter than `include[]=`. */
export function serializeQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params.toString();
}

export function numberHeader(value: unknown): number | undefined {
  const n = Number(value);
  return value === undefined || Number.isNaN(n) ? undefined : n;
}

export function networkError(err: unknown, method: string, url: string): WordPressError {
  const code = axios().isAxiosError(err) ? (err.code ?? 'ERR_NETWORK') : 'ERR_UNKNOWN';
  if (code === 'ERR_CANCELED') return cancelledError(method, url);
  const reason = code === 'ETIMEDOUT' || code === 'ECONNABORTED' ? 'timed out' : `failed (${code})`;
  return new WordPressError({
    code,
    message: `Request to WordPress ${reason}: ${method} ${redactUrl(url)}`,
    request: { method, url: redactUrl(url) },
  });
}

/** A request stopped (or never sent) because its work was cancelled; see abort.ts. */
export function cancelledError(method: string, url: string): WordPressError {
  return new WordPressError({
    code: 'cancelled',
    message: `Cancelled before WordPress answered: ${method} ${redactUrl(url)}`,
    request: { method, url: redactUrl(url) },
  });
}
