import { randomUUID } from 'node:crypto';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { Request, Response } from 'express';
import { consentPage, pageHeaders, readCookie, wordpressAppName } from './consent-page.js';
import type { SignInStore, StoredPending } from '../store/sign-in-store.js';
import { hash, newSecret } from './grants.js';
import { authorizeApplicationUrl } from './wordpress-site.js';

export const CONSENT_PATH = '/oauth/consent';
export const CALLBACK_PATH = '/oauth/wordpress/callback';
const BROWSER_COOKIE = 'cms_admin_browser';
/** The browser that approved (on our page, or by remembered consent): required at the callback. */
const SIGN_IN_COOKIE = 'cms_admin_signin';
/**
 * How long a consent form, and then an approved request (the link to WordPress), stays valid:
 * time enough to sign in on WordPress, not a link that can be passed around for long (#48).
 */
const SIGN_IN_TTL_MS = 10 * 60_000;

export interface Pending {
  client: OAuthClientInformationFull;
  params: AuthorizationParams;
  appId: string;
  expiresAt: number;
  /** Consent was remembered for this login in this browser: WordPress must sign in the same person. */
  rememberedLogin?: string;
  /** Set once approved: the hash of the approving browser's SIGN_IN_COOKIE. */
  browserHash?: string;
}

/**
 * What WordPress's callback brings back: the approved request; `live` the first time within its
 * 10 minutes (else `expired`, or `used` the second time); whether it came back to the browser that approved it.
 */
export interface Taken {
  pending: Pending;
  state: 'live' | 'expired' | 'used';
  sameBrowser: boolean;
}

/**
 * The steps between /authorize and WordPress: our consent page (a form bound to the pending request
 * and to the browser that opened it, single use), then authorize-application.php, whose callback
 * key exists only once the person approved here and works only in the browser that approved (a
 * cookie set on Approve: a link to WordPress forwarded to someone else leads them back to our
 * page, never to a code). Consent is remembered per browser and client by a signed cookie naming
 * the WordPress login that approved; WordPress's own page is still shown.
 */
export class ConsentFlow {
  /*
   * In the store (sign-in-store.ts; any replica serves any step): consent forms by their id's
   * digest, bound to the browser that opened them (its cookie's digest) and single use; approved
   * requests by their callback key's digest. A used or expired one is kept a while (until
   * SIGN_IN_TTL_MS past its end, or its second use), so that the application password WordPress
   * makes for it anyway is deleted; a key never issued makes the server ask WordPress nothing.
   * Both are bounded (the oldest go first): /authorize needs no sign-in.
   */
  constructor(
    readonly store: SignInStore,
    readonly siteUrl: string,
    readonly baseUrl: URL,
    readonly rememberMs: number,
  ) {}

  async start(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const pending: Pending = { client, params, appId: randomUUID(), expiresAt: Date.now() + SIGN_IN_TTL_MS };
    const remembered = this.#remembered(res.req, client.client_id);
    if (remembered) {
      await this.#toWordPress({ ...pending, rememberedLogin: remembered }, res.req, res);
      return;
    }
    const id = newSecret();
    const csrf = newSecret();
    const browser = readCookie(res.req.headers.cookie, BROWSER_COOKIE);
    const browserId = browser && /^[\w-]{43}$/.test(browser) ? browser : newSecret();
    await this.store.putForm(hash(id), { pending: stored(pending), csrfHash: hash(csrf), browserHash: hash(browserId) });
    pageHeaders(res);
    res.cookie(BROWSER_COOKIE, browserId, this.#cookie(CONSENT_PATH, SIGN_IN_TTL_MS, 'strict'));
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
  async submit(req: Request, res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const key = hash(typeof body.pending === 'string' ? body.pending : '');
    const form = await this.store.peekForm(key);
    const browser = readCookie(req.headers.cookie, BROWSER_COOKIE) ?? '';
    if (
      !form ||
      form.pending.expiresAt < Date.now() ||
      typeof body.csrf !== 'string' ||
      hash(body.csrf) !== form.csrfHash ||
      hash(browser) !== form.browserHash ||
      // single use: of two posts of the same form (to one replica or two), one goes on
      !(await this.store.takeForm(key))
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
    const pending = fromStored(form.pending);
    if (body.choice !== 'approve') {
      const back = new URL(pending.params.redirectUri);
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'the person denied access');
      if (pending.params.state !== undefined) back.searchParams.set('state', pending.params.state);
      res.redirect(303, back.href);
      return;
    }
    await this.#toWordPress(pending, req, res);
  }

  /**
   * The approved request WordPress's callback names (live once, whichever browser brings it), or
   * undefined for a key never issued (or long gone); `sameBrowser` only with the cookie of the browser that approved.
   */
  async take(req: Request): Promise<Taken | undefined> {
    const named = (req.query as Record<string, unknown>).pending;
    const key = hash(typeof named === 'string' ? named : '');
    // Marked used (or, the second time, removed) in one step: whichever replica WordPress sends the browser to.
    const entry = await this.store.takeApproved(key);
    if (!entry) return undefined;
    const pending = fromStored(entry.pending);
    const browser = readCookie(req.headers.cookie, SIGN_IN_COOKIE);
    // Compared as digests (hash of a random secret): timing says nothing about the expected one.
    const sameBrowser = browser !== undefined && hash(browser) === pending.browserHash;
    if (entry.used) return { pending, state: 'used', sameBrowser };
    return { pending, state: pending.expiresAt < Date.now() ? 'expired' : 'live', sameBrowser };
  }

  /** Our /authorize for the same request: where a browser that did not approve it is sent, to see our page. */
  againUrl(pending: Pending): string {
    const url = new URL('/authorize', this.baseUrl);
    const { params, client } = pending;
    const query: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: params.redirectUri,
      code_challenge: params.codeChallenge,
      code_challenge_method: 'S256',
      state: params.state,
      scope: params.scopes?.length ? params.scopes.join(' ') : undefined,
      resource: params.resource?.href,
    };
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    return url.href;
  }

  /** Whether a person consented to this client in this browser (the remembered-consent cookie). */
  consented(req: Request, clientId: string): boolean {
    return this.#remembered(req, clientId) !== undefined;
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

  async #toWordPress(pending: Pending, req: Request, res: Response): Promise<void> {
    const key = newSecret();
    // One id per browser (kept while it lasts), so two sign-ins at once in one browser both work.
    const cookie = readCookie(req.headers.cookie, SIGN_IN_COOKIE);
    const browserId = cookie && /^[\w-]{43}$/.test(cookie) ? cookie : newSecret();
    res.cookie(SIGN_IN_COOKIE, browserId, this.#cookie(CALLBACK_PATH, SIGN_IN_TTL_MS, 'lax'));
    const approved = { ...pending, browserHash: hash(browserId), expiresAt: Date.now() + SIGN_IN_TTL_MS };
    await this.store.putApproved(hash(key), stored(approved));
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

/** A pending request as the store keeps it: JSON (the resource as its href), the client without its secret. */
function stored(pending: Pending): StoredPending {
  const { client_secret: _secret, ...client } = pending.client;
  const { resource, ...params } = pending.params;
  return { ...pending, client, params: { ...params, ...(resource && { resource: resource.href }) } };
}

function fromStored(pending: StoredPending): Pending {
  const { resource, ...params } = pending.params;
  return { ...pending, params: { ...params, ...(resource !== undefined && { resource: new URL(resource) }) } };
}
