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
  /** What the user can do about it, when the client knows (e.g. a firewall page, a dropped header). */
  readonly hint: string | undefined;

  constructor(init: {
    status?: number;
    code: string;
    message: string;
    data?: unknown;
    request?: RedactedRequest;
    hint?: string;
  }) {
    // Whatever built the message, no URL in it carries credentials (CMS_URL=http://user:pass@…).
    super(redactUrlsIn(init.message));
    this.status = init.status;
    this.code = init.code;
    this.data = init.data;
    this.request = init.request && { method: init.request.method, url: redactUrl(init.request.url) };
    this.hint = init.hint === undefined ? undefined : redactUrlsIn(init.hint);
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      data: this.data,
      request: this.request,
      hint: this.hint,
    };
  }
}

/** Removes any user:password@ part and keeps the URL otherwise as it was. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return redactUrlsIn(url);
  }
}

/** Every `scheme://user:password@` in a text without its credentials (a warning, an error message). */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, '$1');
}
