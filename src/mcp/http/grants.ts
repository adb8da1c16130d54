import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { crypt } from '../store/crypt.js';
import { type ClientLimits, ClientStore } from './clients.js';

/** One person's sign-in: the application password WordPress handed us for them, and its tokens. */
export interface Grant {
  id: string;
  clientId: string;
  userLogin: string;
  /** The application password's uuid in WordPress (to revoke it there). */
  appUuid: string;
  /** AES-256-GCM of the application password: iv.tag.ciphertext, base64url. */
  password: string;
  /** SHA-256 of the current refresh token (rotated on every use). */
  refreshHash: string;
  refreshExpiresAt: number;
  resource: string;
}

interface StoreFile {
  /** Only in stores of earlier versions: moved to the clients file (clients.ts) on first load. */
  clients?: Record<string, OAuthClientInformationFull>;
  grants: Record<string, Grant>;
}

export const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
export const newSecret = (): string => randomBytes(32).toString('base64url');

/**
 * Grants in `<dir>/oauth-store.json` (0600; registered clients are in their own append-only file,
 * clients.ts: strangers can register, only people who signed in make grants), application passwords
 * encrypted with the key in `<dir>/oauth-key` (0600, made on first use). Tokens are kept only as
 * SHA-256 digests; access tokens and codes live in memory (short-lived: a restart asks clients
 * to refresh).
 */
export class GrantStore {
  readonly #file: string;
  readonly #crypt: ReturnType<typeof crypt>;
  #data: StoreFile;
  readonly clients: ClientStore;

  constructor(dir: string, clientLimits?: ClientLimits) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = path.join(dir, 'oauth-store.json');
    this.#crypt = crypt(loadKey(path.join(dir, 'oauth-key')));
    this.#data = existsSync(this.#file) ? (JSON.parse(readFileSync(this.#file, 'utf8')) as StoreFile) : { grants: {} };
    this.clients = new ClientStore(dir, this, clientLimits);
    if (this.#data.clients) {
      const used = new Set(this.grants().map((grant) => grant.clientId));
      for (const client of Object.values(this.#data.clients)) this.clients.add(client, used.has(client.client_id));
      delete this.#data.clients;
      this.#save();
    }
  }

  grant(id: string): Grant | undefined {
    return this.#data.grants[id];
  }

  grants(): Grant[] {
    return Object.values(this.#data.grants);
  }

  grantByRefresh(refreshToken: string): Grant | undefined {
    const digest = hash(refreshToken);
    return this.grants().find((grant) => grant.refreshHash === digest);
  }

  putGrant(grant: Grant): void {
    this.#data.grants[grant.id] = grant;
    this.#save();
  }

  dropGrant(id: string): void {
    delete this.#data.grants[id];
    this.#save();
  }

  seal(secret: string): string {
    return this.#crypt.seal(secret);
  }

  open(sealed: string): string {
    return this.#crypt.open(sealed);
  }

  /** An HMAC of `text` under a key derived from the store's (for values a browser keeps, e.g. remembered consent). */
  mac(text: string): string {
    return this.#crypt.mac(text);
  }

  #save(): void {
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.#data), { mode: 0o600 });
    renameSync(temp, this.#file);
  }
}

function loadKey(file: string): Buffer {
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32)
    throw new Error(`${file} does not hold a 32-byte key: delete it (every grant is then lost) to make a new one.`);
  return key;
}
