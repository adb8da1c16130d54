import { randomUUID } from 'node:crypto';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { Request, Response } from 'express';
import { consentPage, pageHeaders, readCookie, wordpressAppName } from './consent-page.js';
import { type GrantStore, hash, newSecret } from './grants.js';
import { authorizeApplicationUrl } from './wordpress-site.js';

export const CONSENT_PATH = '/oauth/consent';
export const CALLBACK_PATH = '/oauth/wordpress/callback';
const BROWSER_COOKIE = 'cms_admin_browser';
const FORM_TTL_MS = 15 * 60_000;
/** /authorize needs no sign-in: the consent forms waiting in memory are bounded (the oldest go first). */
const MAX_FORMS = 10_000;

export interface Pending {
  client: OAuthClientInformationFull;
  params: AuthorizationParams;
  appId: string;
  expiresAt: number;
  /** Consent was remembered for this login in this browser: WordPress must sign in the same person. */
  rememberedLogin?: string;
}
interface Form {
  pending: Pending;
  csrfHash: string;
  /** The consent page's browser (its cookie): a form fetched by someone else cannot be posted from the person's browser. */
  browserHash: string;
}

/**
 * The steps between /authorize and WordPress: our consent page (a form bound to the pending request
 * and to the browser that opened it, single use), then authorize-application.php, whose callback
 * key exists only once the person approved here. Consent is remembered per browser and client by
 * a signed cookie naming the WordPress login that approved; WordPress's own page is still shown.
 */
export class ConsentFlow {
  readonly #forms = new Map<string, Form>();
  readonly #approved = new Map<string, Pending>();

  constructor(
    readonly store: GrantStore,
    readonly siteUrl: string,
    readonly baseUrl: URL,
    readonly rememberMs: number,
  ) {}

  start(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): void {
    const pending: Pending = { client, params, appId: randomUUID(), expiresAt: Date.now() + FORM_TTL_MS };
    const remembered = this.#remembered(res.req, client.client_id);
    if (remembered) {
      this.#toWordPress({ ...pending, rememberedLogin: remembered }, res);
      return;
    }
    const id = newSecret();
    const csrf = newSecret();
    const browser = readCookie(res.req.headers.cookie, BROWSER_COOKIE);
    const browserId = browser && /^[\w-]{43}$/.test(browser) ? browser : newSecret();
    this.#forms.set(hash(id), { pending, csrfHash: hash(csrf), browserHash: hash(browserId) });
    if (this.#forms.size > MAX_FORMS) this.#forms.delete(this.#forms.keys().next().value as string);
    pageHeaders(res);
    res.cookie(BROWSER_COOKIE, browserId, this.#cookie(CONSENT_PATH, FORM_TTL_MS, 'strict'));
    res
      .status(200)
      .type('html')
      .send(
        consentPage({
          client,
          redirectUri: params.redirectUri,
          siteUrl: this.siteUrl,
          action: new URL(CONSENT_PATH, this.baseUrl).pathname,
          pending: id,
          csrf,
          idleDays: Math.round(this.rememberMs / 86400_000),
        }),
      );
  }

  /** The consent form's POST: Approve goes on to WordPress, Deny goes back to the client with access_denied. */
  submit(req: Request, res: Response): void {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const key = hash(typeof body.pending === 'string' ? body.pending : '');
    const form = this.#forms.get(key);
    const browser = readCookie(req.headers.cookie, BROWSER_COOKIE) ?? '';
    if (
      !form ||
      form.pending.expiresAt < Date.now() ||
      typeof body.csrf !== 'string' ||
      hash(body.csrf) !== form.csrfHash ||
      hash(browser) !== form.browserHash
    ) {
      pageHeaders(res);
      res
        .status(403)
        .type('text/plain')
        .send(
          'This approval form is not valid here (expired, already used, or not opened in this browser): start again from your MCP client.',
        );
      return;
    }
    this.#forms.delete(key); // single use
    if (body.choice !== 'approve') {
      const back = new URL(form.pending.params.redirectUri);
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'the person denied access');
      if (form.pending.params.state !== undefined) back.searchParams.set('state', form.pending.params.state);
      res.redirect(303, back.href);
      return;
    }
    this.#toWordPress(form.pending, res);
  }

  /** The pending request WordPress's callback names (single use), or undefined. */
  take(callbackKey: string): Pending | undefined {
    const key = hash(callbackKey);
    const pending = this.#approved.get(key);
    this.#approved.delete(key);
    return pending && pending.expiresAt >= Date.now() ? pending : undefined;
  }

  /** After a sign-in went through: this browser skips our page for this client next time, for this login. */
  remember(res: Response, clientId: string, login: string): void {
    const expires = Date.now() + this.rememberMs;
    const body = `${Buffer.from(login).toString('base64url')}.${expires}`;
    res.cookie(this.#rememberName(clientId), `${body}.${this.store.mac(`consent\n${clientId}\n${body}`)}`, {
      ...this.#cookie('/authorize', this.rememberMs, 'lax'),
    });
  }

  forget(res: Response, clientId: string): void {
    res.clearCookie(this.#rememberName(clientId), this.#cookie('/authorize', 0, 'lax'));
  }

  sweep(now: number): void {
    for (const [key, form] of this.#forms) if (form.pending.expiresAt < now) this.#forms.delete(key);
    for (const [key, pending] of this.#approved) if (pending.expiresAt < now) this.#approved.delete(key);
  }

  #toWordPress(pending: Pending, res: Response): void {
    const key = newSecret();
    this.#approved.set(hash(key), pending);
    const back = new URL(CALLBACK_PATH, this.baseUrl);
    back.searchParams.set('pending', key);
    const reject = new URL(back);
    reject.searchParams.set('rejected', '1');
    const name = wordpressAppName(pending.client, pending.params.redirectUri);
    res.redirect(303, authorizeApplicationUrl(this.siteUrl, name, pending.appId, back, reject).href);
  }

  #remembered(req: Request, clientId: string): string | undefined {
    const value = readCookie(req.headers.cookie, this.#rememberName(clientId));
    const [login, expires, mac] = (value ?? '').split('.');
    if (!login || !expires || !mac || Number(expires) < Date.now()) return undefined;
    // Compared as digests: timing says nothing about the expected value.
    if (hash(this.store.mac(`consent\n${clientId}\n${login}.${expires}`)) !== hash(mac)) return undefined;
    return Buffer.from(login, 'base64url').toString('utf8');
  }

  #rememberName(clientId: string): string {
    return `cms_admin_consent_${hash(clientId).slice(0, 16)}`;
  }

  #cookie(path: string, maxAge: number, sameSite: 'strict' | 'lax') {
    return { path, maxAge, sameSite, httpOnly: true, secure: this.baseUrl.protocol === 'https:' } as const;
  }
}
