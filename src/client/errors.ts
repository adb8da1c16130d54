/**
 * The one error type the WordPress client throws.
 *
 * Like octokit's RequestError it carries the HTTP status, WordPress's own error `code`
 * (e.g. `term_exists`, `rest_post_invalid_id`) and a redacted copy of the request: method
 * and URL only. Axios errors keep the `Authorization` header in `config`, so they are
 * never rethrown or attached as `cause` — serialising one would leak the application password.
 */
export interface RedactedRequest {
  method: string;
  url: string;
}

export class WordPressError extends Error {
  override readonly name = 'WordPressError';
  readonly status: number | undefined;
  readonly code: string;
  readonly data: unknown;
  readonly request: RedactedRequest | undefined;

  constructor(init: {
    status?: number;
    code: string;
    message: string;
    data?: unknown;
    request?: RedactedRequest;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.data = init.data;
    this.request = init.request;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      data: this.data,
      request: this.request,
    };
  }
}

/** WordPress messages sometimes carry HTML (`<strong>Error:</strong> …`); the model wants text. */
export function plainText(message: string): string {
  return message
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&rsquo;|&lsquo;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Removes any user:password@ part and keeps the URL otherwise readable. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}
