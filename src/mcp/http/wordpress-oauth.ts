import { randomUUID } from 'node:crypto';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  InvalidGrantError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Response } from 'express';
import { WordPressClient } from '../../client/index.js';
import type { SignInStore } from '../store/sign-in-store.js';
import type { ClientLimits } from './clients.js';
import { ConsentFlow, type Pending } from './consent.js';
import { type Grant, hash, newSecret } from './grants.js';
import { ClientIdDocuments, isClientIdUrl } from './client-id-documents.js';
import { checkRegistration } from './registration.js';
import { deleteOwnAppPassword } from './wordpress-site.js';

export interface WordPressAuthOptions {
  /** The WordPress site people sign in on (its `site_url` must match what WordPress hands back). */
  siteUrl: string;
  /** Folder for the grant store and its key (0700; files 0600); unused with a PostgreSQL store. */
  stateDir: string;
  /** Access token lifetime; default 1 h. */
  accessTtlMs?: number;
  /** Refresh token lifetime (a grant unused this long is revoked in WordPress); default 30 days. */
  refreshTtlMs?: number;
  /** Bounds on clients registered but never used (tests make them small). */
  clients?: ClientLimits;
  /** `--rate-limit`: sign-in requests per client address and window, counted in the store (sign-in.ts). */
  rateLimit?: { limit: number; windowMs: number };
  /** `--allow-loopback-client-ids`: fetch Client ID Metadata Documents from loopback (tests only). */
  allowLoopbackClientIds?: boolean;
}

export { CALLBACK_PATH, CONSENT_PATH } from './consent.js';

/**
 * OAuth 2.1 (the MCP SDK's router does metadata, registration, PKCE S256 and the endpoints) where
 * signing in is WordPress's own `authorize-application.php`: on approve, WordPress hands us a new
 * application password for the person, which we keep encrypted and never show; our tokens map to it.
 */
export class WordPressOAuthProvider implements OAuthServerProvider {
  readonly consent: ConsentFlow;
  readonly #accessTtl: number;
  readonly #documents: ClientIdDocuments;
  readonly #refreshTtl: number;
  /** Called when a grant ends (revoked or expired): its sessions close. */
  onGrantEnded: (grantId: string) => void = () => {};

  constructor(
    readonly options: WordPressAuthOptions,
    readonly baseUrl: URL,
    readonly resource: URL,
    /** Clients, grants, codes, tokens, consents (store/sign-in-store.ts): shared by every replica with PostgreSQL. */
    readonly store: SignInStore,
  ) {
    this.#accessTtl = options.accessTtlMs ?? 3600_000;
    this.#documents = new ClientIdDocuments({ allowLoopback: options.allowLoopbackClientIds });
    this.#refreshTtl = options.refreshTtlMs ?? 30 * 86400_000;
    this.consent = new ConsentFlow(this.store, options.siteUrl, baseUrl, this.#refreshTtl);
  }

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      // An https URL is a Client ID Metadata Document (client-id-documents.ts); else a registered client.
      getClient: (id) => (isClientIdUrl(id) ? this.#documents.get(id) : this.store.getClient(id)),
      registerClient: async (client) => {
        const full = checkRegistration({
          ...client,
          client_id: randomUUID(),
          client_id_issued_at: Math.floor(Date.now() / 1000),
        });
        await this.store.addClient(full);
        return full;
      },
    };
  }

  /** Our consent page first (consent.ts), then WordPress's authorize-application.php. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    if (params.resource && params.resource.href !== this.resource.href) throw this.#otherTarget(params.resource.href);
    await this.consent.start(client, params, res);
  }

  /** A grant for the person WordPress signed in (consent.ts's pending request); the code the client exchanges. */
  async newGrant(pending: Pending, approval: { userLogin: string; appUuid: string; password: string }): Promise<string> {
    const grant: Grant = {
      id: randomUUID(),
      clientId: pending.client.client_id,
      userLogin: approval.userLogin,
      appUuid: approval.appUuid,
      password: this.store.seal(approval.password),
      refreshHash: '',
      refreshExpiresAt: 0,
      resource: this.resource.href,
    };
    await this.store.putGrant(grant);
    await this.store.markClientUsed(grant.clientId);
    const code = newSecret();
    await this.store.putCode(hash(code), {
      grantId: grant.id,
      clientId: grant.clientId,
      challenge: pending.params.codeChallenge,
      redirectUri: pending.params.redirectUri,
      expiresAt: Date.now() + 60_000,
    });
    return code;
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = await this.store.peekCode(hash(code));
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    return found.challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    // Taken once, whichever replica asks first: a second redemption finds nothing.
    const found = await this.store.takeCode(hash(code));
    if (!found || found.clientId !== client.client_id || found.expiresAt < Date.now())
      throw new InvalidGrantError('unknown or expired authorization code');
    if (redirectUri !== undefined && redirectUri !== found.redirectUri)
      throw new InvalidGrantError('redirect_uri differs from the authorization request');
    if (resource && resource.href !== this.resource.href) throw this.#otherTarget(resource.href);
    const grant = await this.store.grant(found.grantId);
    if (!grant) throw new InvalidGrantError('the grant was revoked');
    return this.#issue(grant, grant.refreshHash);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    _scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const grant = await this.store.grantByRefresh(hash(refreshToken));
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    if (grant.refreshExpiresAt <= Date.now()) {
      await this.revokeGrant(grant.id);
      throw new InvalidGrantError('the refresh token expired: sign in again');
    }
    if (resource && resource.href !== this.resource.href) throw this.#otherTarget(resource.href);
    if (grant.resource !== this.resource.href) {
      throw new InvalidTargetError(`this grant was made for ${grant.resource}; this server is ${this.resource.href}`);
    }
    return this.#issue(grant, hash(refreshToken));
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    // Read from the store on every request: a grant revoked on another replica is refused here at once.
    const found = await this.store.access(hash(token));
    if (!found) throw new InvalidTokenError('unknown token');
    if (found.expiresAt <= Date.now()) throw new InvalidTokenError('the token expired: refresh it');
    return {
      token,
      clientId: found.clientId,
      scopes: [],
      expiresAt: Math.floor(found.expiresAt / 1000),
      resource: new URL(found.resource),
      extra: { grantId: found.grantId },
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const access = await this.store.access(hash(request.token));
    const grant = access ? await this.store.grant(access.grantId) : await this.store.grantByRefresh(hash(request.token));
    if (grant && grant.clientId === client.client_id) await this.revokeGrant(grant.id);
  }

  /** Ends a grant: its tokens stop working, its sessions close, its application password is deleted in WordPress. */
  async revokeGrant(grantId: string): Promise<void> {
    // One caller removes it (another replica revoking at once gets nothing): that one deletes it in WordPress.
    const grant = await this.store.dropGrant(grantId);
    if (!grant) return;
    this.onGrantEnded(grantId);
    await deleteOwnAppPassword(this.credentials(grant), grant.userLogin, grant.appUuid);
  }

  /** Grants unused past their refresh lifetime end (and are revoked in WordPress); stale codes and tokens go. */
  async sweep(): Promise<void> {
    const now = Date.now();
    await this.store.sweep(now);
    for (const grant of await this.store.expiredGrants(now)) await this.revokeGrant(grant.id);
  }

  /** The WordPress client of a grant: calls run as its person. */
  credentials(grant: Grant): WordPressClient {
    return new WordPressClient({
      url: this.options.siteUrl,
      username: grant.userLogin,
      appPassword: this.store.open(grant.password),
    });
  }

  /** invalid_target naming what was asked for, and what this server is. */
  #otherTarget(asked: string): InvalidTargetError {
    return new InvalidTargetError(`the resource ${asked} is not served here; this server is ${this.resource.href}`);
  }

  /**
   * New tokens for a grant whose refresh digest is `fromHash`: the rotation is one conditional
   * update, so of two replicas redeeming the same refresh token at once one wins, the other answers invalid_grant.
   */
  async #issue(grant: Grant, fromHash: string): Promise<OAuthTokens> {
    const access = newSecret();
    const refresh = newSecret();
    const rotated = await this.store.rotateRefresh(grant.id, fromHash, hash(refresh), Date.now() + this.#refreshTtl);
    if (!rotated) throw new InvalidGrantError('unknown refresh token');
    await this.store.putAccess(hash(access), {
      grantId: grant.id,
      clientId: grant.clientId,
      resource: grant.resource,
      expiresAt: Date.now() + this.#accessTtl,
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.floor(this.#accessTtl / 1000),
      refresh_token: refresh,
    };
  }
}
