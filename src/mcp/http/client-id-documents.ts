import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { refusedAddress } from './address-policy.js';
import { checkRegistration } from './registration.js';

/**
 * Client ID Metadata Documents (MCP 2025-11-25 authorization, recommended in 2026-07-28;
 * draft-ietf-oauth-client-id-metadata-document): a client's id is the https URL of a JSON document
 * describing it. We fetch it when the client shows up at /authorize or /token: https only, never
 * from a private, loopback or link-local address, nor one wrapped in an IPv6 transition form
 * (address-policy.ts; checked on the address actually connected to, so DNS cannot swap it after
 * the check) unless `allowLoopback` (`mcp --allow-loopback-client-ids`,
 * for tests: loopback only, still https), at most 5 KiB, within 5 s, no redirects followed; kept
 * as long as its Cache-Control (max-age, no-store) or Expires say, at most a day.
 */
export interface ClientIdDocumentOptions {
  /** `--allow-loopback-client-ids`: documents on 127.0.0.0/8 or ::1 (tests). Off by default. */
  allowLoopback?: boolean;
  maxBytes?: number;
  timeoutMs?: number;
}

const MAX_CACHE_MS = 86_400_000;
const MAX_CACHED = 1000;

/** Whether `id` is a client id in this form (else it is a registered client's UUID). */
export const isClientIdUrl = (id: string): boolean => id.startsWith('https://');

export class ClientIdDocuments {
  readonly #cache = new Map<string, { client: OAuthClientInformationFull; until: number }>();
  readonly #maxBytes: number;
  readonly #timeoutMs: number;

  constructor(readonly options: ClientIdDocumentOptions = {}) {
    this.#maxBytes = options.maxBytes ?? 5 * 1024;
    this.#timeoutMs = options.timeoutMs ?? 5000;
  }

  /** The client the document at `id` describes; an OAuth invalid_client error saying why not. */
  async get(id: string): Promise<OAuthClientInformationFull> {
    const cached = this.#cache.get(id);
    if (cached && cached.until > Date.now()) return cached.client;
    this.#cache.delete(id);
    const url = documentUrl(id);
    const { body, cacheMs } = await this.#fetch(url);
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(body) as Record<string, unknown>;
    } catch {
      throw new InvalidClientError(`the client id document at ${url.host} is not JSON`);
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new InvalidClientError(`the client id document at ${url.host} is not a JSON object`);
    if (doc.client_id !== id) throw new InvalidClientError(`the client id document at ${url.host} names another client_id`);
    const method = doc.token_endpoint_auth_method ?? 'none';
    // A document is public: it cannot hold a secret, and we take no client keys (private_key_jwt).
    if (method !== 'none' || 'client_secret' in doc)
      throw new InvalidClientError(`the client id document at ${url.host} asks for token_endpoint_auth_method ${String(method)}: only none`);
    let client: OAuthClientInformationFull;
    try {
      client = checkRegistration({ ...(doc as unknown as OAuthClientInformationFull), token_endpoint_auth_method: 'none' });
    } catch (err) {
      throw new InvalidClientError(`the client id document at ${url.host}: ${(err as Error).message}`);
    }
    if (cacheMs > 0) {
      if (this.#cache.size >= MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value as string);
      this.#cache.set(id, { client, until: Date.now() + cacheMs });
    }
    return client;
  }

  #fetch(url: URL): Promise<{ body: string; cacheMs: number }> {
    const allowLoopback = this.options.allowLoopback === true;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const refused = (address: string) => refusedAddress(address, allowLoopback);
    // Checked on the address the socket connects to (no second resolution to swap it).
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        const list = addresses as LookupAddress[];
        const bad = list.find((a) => refused(a.address));
        if (bad || list.length === 0) {
          const why = bad ? `, ${refused(bad.address)}` : '';
          return callback(new BlockedAddressError(`${hostname} resolves to ${bad?.address ?? 'nothing'}${why}`), '', 0);
        }
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        const first = list[0] as LookupAddress;
        callback(null, first.address, first.family);
      });
    };
    const literal = isIP(host) ? refused(host) : undefined;
    if (literal) return Promise.reject(new InvalidClientError(`client id documents are not fetched from ${host}: ${literal}`));
    return new Promise((resolve, reject) => {
      const fail = (why: string) => reject(new InvalidClientError(`the client id document at ${url.host} could not be read: ${why}`));
      const req = request(url, { method: 'GET', lookup, headers: { accept: 'application/json' }, timeout: this.#timeoutMs }, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return fail(`it redirects (${status}); redirects are not followed`);
        }
        if (status !== 200) {
          res.resume();
          return fail(`HTTP ${status}`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > this.#maxBytes) {
            req.destroy();
            return fail(`it is over ${this.#maxBytes} bytes`);
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (size > this.#maxBytes) return;
          resolve({ body: Buffer.concat(chunks).toString('utf8'), cacheMs: cacheMsOf(res.headers) });
        });
        res.on('error', (err) => fail(err.message));
      });
      const timer = setTimeout(() => {
        req.destroy();
        fail(`no answer within ${this.#timeoutMs} ms`);
      }, this.#timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.#timeoutMs} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) =>
        fail(err instanceof BlockedAddressError ? `${err.message}; documents are not fetched from it` : err.message),
      );
      req.end();
    });
  }
}

/** The id as a URL we fetch: https, a path, no fragment, credentials or dot segments. */
function documentUrl(id: string): URL {
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    throw new InvalidClientError('the client id is not a URL');
  }
  if (url.protocol !== 'https:') throw new InvalidClientError('a client id document is fetched over https only');
  if (url.pathname === '/' || url.hash || url.username || url.password || /\/\.\.?(\/|$)/.test(id))
    throw new InvalidClientError('a client id URL has a path, and no fragment, credentials or dot segments');
  if (id.length > 2000) throw new InvalidClientError('the client id URL is longer than 2000 characters');
  return url;
}

/** How long a response may be kept: Cache-Control max-age (no-store/no-cache: not kept), else Expires; at most a day. */
function cacheMsOf(headers: Record<string, string | string[] | undefined>): number {
  const control = String(headers['cache-control'] ?? '').toLowerCase();
  if (/no-store|no-cache/.test(control)) return 0;
  const maxAge = /max-age=(\d+)/.exec(control)?.[1];
  if (maxAge !== undefined) return Math.min(Number(maxAge) * 1000, MAX_CACHE_MS);
  const expires = Date.parse(String(headers.expires ?? ''));
  return Number.isNaN(expires) ? 0 : Math.max(0, Math.min(expires - Date.now(), MAX_CACHE_MS));
}

/** A client id document's host resolves to an address we do not fetch from (private, loopback). */
class BlockedAddressError extends Error {}
