import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { recordSecret } from './output-log.js';

/**
 * A person's browser as a script: a cookie jar, redirects followed by hand. It logs in through
 * wp-login.php and submits authorize-application.php's approve form (the no-JS path) with its nonce.
 */
export class WpBrowser {
  readonly #cookies = new Map<string, string>();
  /** The application password WordPress handed to our callback (recorded as a secret for the scan). */
  appPassword?: string;

  constructor(readonly siteUrl: string) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size) headers.set('cookie', [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = (pair ?? '').indexOf('=');
      if (at > 0) this.#cookies.set((pair as string).slice(0, at).trim(), (pair as string).slice(at + 1).trim());
    }
    return res;
  }

  async logIn(username: string, password: string): Promise<void> {
    const base = this.siteUrl.replace(/\/$/, '');
    this.#cookies.set('wordpress_test_cookie', 'WP%20Cookie%20check');
    const res = await this.request(`${base}/wp-login.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ log: username, pwd: password, 'wp-submit': 'Log In', testcookie: '1' }).toString(),
    });
    if (res.status !== 302 || ![...this.#cookies.keys()].some((k) => k.startsWith('wordpress_logged_in'))) {
      throw new Error(`wp-login.php did not log ${username} in (HTTP ${res.status})`);
    }
  }

  /** Opens `authorizeUrl`: our consent page (its text, headers and form), or a redirect (`location`). */
  async open(authorizeUrl: string): Promise<ConsentView> {
    const res = await this.request(authorizeUrl);
    // A page (our consent page, or an error page), or a redirect whose body is not read.
    const redirected = res.status >= 300 && res.status < 400;
    const html = redirected ? '' : await res.text();
    if (redirected) await res.body?.cancel();
    const form = /<form[^>]*action="([^"]+)"[\s\S]*?<\/form>/.exec(html);
    const fields: Record<string, string> = {};
    for (const input of (form?.[0] ?? '').matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(input[0])?.[1];
      if (name) fields[name] = decodeEntities(/value="([^"]*)"/.exec(input[0])?.[1] ?? '');
    }
    return {
      status: res.status,
      headers: res.headers,
      html,
      text: decodeEntities(html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')),
      location: res.headers.get('location') ?? undefined,
      action: form ? new URL(decodeEntities(form[1] as string), authorizeUrl).href : undefined,
      fields,
    };
  }

  /** Posts our consent form (`fields` as the page gave them, or forged ones); the raw answer. */
  async consent(action: string, fields: Record<string, string>, choice: 'approve' | 'deny' = 'approve') {
    return this.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(action).origin },
      body: new URLSearchParams({ ...fields, choice }).toString(),
    });
  }

  /**
   * Follows `authorizeUrl` (our consent page, approved — unless this browser's consent is
   * remembered — then authorize-application.php), approves (or rejects) there, and follows
   * WordPress's redirect through our callback. Returns the final redirect to the client.
   */
  async approve(authorizeUrl: string, choice: 'approve' | 'reject' = 'approve'): Promise<URL> {
    const page = await this.open(authorizeUrl);
    let wpPage = page.location;
    if (page.status === 200 && page.action) {
      const posted = await this.consent(page.action, page.fields);
      await posted.body?.cancel();
      wpPage = posted.headers.get('location') ?? undefined;
    }
    if (!wpPage?.includes('/wp-admin/authorize-application.php')) {
      throw new Error(`the authorize step did not send the person to WordPress (HTTP ${page.status})`);
    }
    return this.onWordPress(wpPage, choice);
  }

  /** On authorize-application.php: approve or reject, then through our callback (its redirect: to the client, or back to our page). */
  async onWordPress(wpPage: string, choice: 'approve' | 'reject' = 'approve'): Promise<URL> {
    const back = await this.throughWordPress(wpPage, choice);
    const next = back.headers.get('location');
    if ((back.status !== 302 && back.status !== 303) || !next)
      throw new Error(`our callback did not redirect (HTTP ${back.status}): ${await back.text()}`);
    return new URL(next, back.url || wpPage);
  }

  /** On authorize-application.php: approve or reject; our callback's raw answer. */
  async throughWordPress(wpPage: string, choice: 'approve' | 'reject' = 'approve'): Promise<Response> {
    const wpAnswer = await this.request(wpPage);
    const html = await wpAnswer.text();
    const form = /<form[^>]*authorize-application\.php[^>]*method="post"[\s\S]*?<\/form>/.exec(html)?.[0];
    if (!form) throw new Error(`authorize-application.php showed no approve form (HTTP ${wpAnswer.status})`);
    const fields = new URLSearchParams();
    for (const input of form.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(input[0])?.[1];
      const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
      if (name && !/type="submit"/.test(input[0])) fields.set(name, decodeEntities(value));
    }
    fields.set(choice, '1');
    const done = await this.request(new URL('authorize-application.php', wpPage).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    });
    const callback = done.headers.get('location');
    if (done.status !== 302 || !callback)
      throw new Error(`WordPress did not redirect after ${choice} (HTTP ${done.status})`);
    this.appPassword = new URL(callback).searchParams.get('password') ?? undefined;
    recordSecret(this.appPassword);
    return this.request(callback);
  }
}

export interface ConsentView {
  status: number;
  headers: Headers;
  html: string;
  /** The page's words, tags stripped. */
  text: string;
  location?: string;
  action?: string;
  fields: Record<string, string>;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&#0?38;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** The MCP SDK client's OAuth side, kept in memory; the authorize URL is handed to a WpBrowser. */
export class MemoryOAuthClient implements OAuthClientProvider {
  authorizeUrl?: URL;
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';

  constructor(readonly name: string) {}

  get redirectUrl(): string {
    return 'http://127.0.0.1:1/oauth/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    recordSecret(tokens.access_token);
    recordSecret(tokens.refresh_token);
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizeUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    recordSecret(verifier);
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
