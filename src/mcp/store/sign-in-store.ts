import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ClientLimits } from '../http/clients.js';
import type { Grant } from '../http/grants.js';

/** An authorization code (kept by its SHA-256 digest), single use. */
export interface CodeRecord {
  grantId: string;
  clientId: string;
  challenge: string;
  redirectUri: string;
  expiresAt: number;
}

/** An access token (kept by its SHA-256 digest). */
export interface AccessRecord {
  grantId: string;
  clientId: string;
  resource: string;
  expiresAt: number;
}

/**
 * A sign-in request between /authorize and WordPress's callback (consent.ts), as stored: plain
 * JSON (the resource as a string, the client without its secret).
 */
export interface StoredPending {
  client: OAuthClientInformationFull;
  params: {
    redirectUri: string;
    codeChallenge: string;
    state?: string;
    scopes?: string[];
    resource?: string;
  };
  appId: string;
  expiresAt: number;
  rememberedLogin?: string;
  browserHash?: string;
}

/** Our consent page's form (consent.ts), by the digest of its id. */
export interface FormRecord {
  pending: StoredPending;
  csrfHash: string;
  browserHash: string;
}

/**
 * Everything a sign-in needs between requests, so that any server process can serve any of them
 * (docs/remote-mcp.md: Many replicas): registered clients and their bounds, grants (application
 * passwords sealed), codes (single use), access tokens and refresh tokens (digests only), the
 * consent flow's pending requests, rate-limit counters. Embedded (files in --state-dir and this
 * process's memory, sign-in-embedded.ts) or PostgreSQL (sign-in-postgres.ts). Every method that
 * must hold across processes is one atomic step (a code taken once, a refresh token rotated once).
 */
export interface SignInStore {
  readonly kind: 'embedded' | 'postgres';
  /** AES-256-GCM under the store's key (application passwords, client secrets). */
  seal(secret: string): string;
  open(sealed: string): string;
  /** An HMAC under a key derived from the store's (remembered-consent cookies). */
  mac(text: string): string;

  getClient(id: string): Promise<OAuthClientInformationFull | undefined>;
  /** A new client (its secret sealed here); the oldest unused ones go past the limits. */
  addClient(client: OAuthClientInformationFull): Promise<void>;
  markClientUsed(id: string): Promise<void>;

  grant(id: string): Promise<Grant | undefined>;
  grantByRefresh(refreshHash: string): Promise<Grant | undefined>;
  putGrant(grant: Grant): Promise<void>;
  /** Removes a grant and its access tokens; the grant if this call removed it (one caller wins). */
  dropGrant(id: string): Promise<Grant | undefined>;
  /**
   * Sets the grant's refresh digest if it is still `fromHash` (one winner when two processes
   * redeem the same refresh token): the grant as it is now, or undefined if it was not.
   */
  rotateRefresh(grantId: string, fromHash: string, toHash: string, expiresAt: number): Promise<Grant | undefined>;
  /** Grants whose refresh lifetime ended before `now`. */
  expiredGrants(now: number): Promise<Grant[]>;

  putCode(codeHash: string, code: CodeRecord): Promise<void>;
  peekCode(codeHash: string): Promise<CodeRecord | undefined>;
  /** Removes and returns the code: only the first caller, whichever process, gets it. */
  takeCode(codeHash: string): Promise<CodeRecord | undefined>;

  putAccess(tokenHash: string, access: AccessRecord): Promise<void>;
  /** The access token, only while its grant exists (read on every request: no cache). */
  access(tokenHash: string): Promise<AccessRecord | undefined>;

  putForm(formHash: string, form: FormRecord): Promise<void>;
  peekForm(formHash: string): Promise<FormRecord | undefined>;
  /** Removes and returns the form (single use). */
  takeForm(formHash: string): Promise<FormRecord | undefined>;

  putApproved(keyHash: string, pending: StoredPending): Promise<void>;
  /**
   * WordPress's callback for an approved request: the first take marks it used (`used: false`),
   * a second removes it (`used: true`); undefined for a key never issued or long gone.
   */
  takeApproved(keyHash: string): Promise<{ pending: StoredPending; used: boolean } | undefined>;

  /** Counts one hit of `key` in the current fixed window of `windowMs`: the count so far and when the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;

  /** Drops what expired (codes, tokens, forms, approvals, windows, unused clients). */
  sweep(now: number): Promise<void>;
  close(): Promise<void>;
}

export interface SignInStoreOptions {
  /** The embedded store's folder (unused by PostgreSQL). */
  stateDir: string;
  clients?: ClientLimits;
}

/** How long an approved request is kept past its end (consent.ts: SIGN_IN_TTL_MS). */
export const APPROVED_GRACE_MS = 10 * 60_000;
/** Consent forms / approved requests kept at most (oldest go first): /authorize needs no sign-in. */
export const MAX_PENDING = 10_000;
