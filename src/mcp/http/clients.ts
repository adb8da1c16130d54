import { appendFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface ClientLimits {
  /** Clients registered but never used for a sign-in kept at most (the oldest go first); default 1,000. */
  maxUnused?: number;
  /** Their total size kept at most; default 4 MiB. */
  maxUnusedBytes?: number;
  /** A client never used this long after registering is forgotten; default 24 h. */
  unusedTtlMs?: number;
}

interface Entry {
  client: OAuthClientInformationFull;
  at: number;
  used: boolean;
  bytes: number;
}

type Line =
  | { op: 'add'; client: OAuthClientInformationFull; at: number; used?: boolean }
  | { op: 'used' | 'drop'; id: string };

/**
 * Registered clients in `<dir>/oauth-clients.jsonl` (0600), append-only: a registration, a first
 * use or a removal appends one line; the file is rewritten only when dead lines outweigh live
 * ones. Registration needs no sign-in, so what strangers can leave here is bounded: clients never
 * used for a sign-in expire and at most `maxUnused` of them are kept. Client secrets are sealed.
 */
export class ClientStore {
  readonly #file: string;
  readonly #entries = new Map<string, Entry>();
  /** Ids of unused clients, oldest first (a Map keeps insertion order). */
  readonly #unused = new Map<string, number>();
  #unusedBytes = 0;
  #liveBytes = 0;
  #fileBytes = 0;
  readonly #limits: Required<ClientLimits>;

  constructor(
    dir: string,
    readonly crypt: { seal(text: string): string; open(sealed: string): string },
    limits: ClientLimits = {},
  ) {
    this.#file = path.join(dir, 'oauth-clients.jsonl');
    this.#limits = { maxUnused: 1000, maxUnusedBytes: 4 * 1024 * 1024, unusedTtlMs: 86400_000, ...limits };
    if (!existsSync(this.#file)) return;
    const text = readFileSync(this.#file, 'utf8');
    for (const raw of text.split('\n')) {
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue; // a line cut by a crash: that registration is lost, the rest stands
      }
      if (line.op === 'add') this.#put(line.client, line.at, line.used === true);
      else if (line.op === 'used') this.#use(line.id);
      else if (line.op === 'drop') this.#drop(line.id);
    }
    this.#fileBytes = statSync(this.#file).size;
    this.sweep();
    if (!text.endsWith('\n') || this.#fileBytes > 2 * this.#liveBytes + 256 * 1024) this.#compact();
  }

  get(id: string): OAuthClientInformationFull | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (!entry.used && entry.at + this.#limits.unusedTtlMs <= Date.now()) return undefined;
    const { client } = entry;
    return client.client_secret ? { ...client, client_secret: this.crypt.open(client.client_secret) } : client;
  }

  add(client: OAuthClientInformationFull, used = false): void {
    const sealed = client.client_secret ? { ...client, client_secret: this.crypt.seal(client.client_secret) } : client;
    const at = Date.now();
    this.#put(sealed, at, used);
    this.#append({ op: 'add', client: sealed, at, ...(used ? { used } : {}) });
    while (this.#unused.size > this.#limits.maxUnused || this.#unusedBytes > this.#limits.maxUnusedBytes) {
      this.remove(this.#unused.keys().next().value as string);
    }
  }

  /** A sign-in went through for this client: it is kept past the unused limits. */
  markUsed(id: string): void {
    if (!this.#unused.has(id)) return;
    this.#use(id);
    this.#append({ op: 'used', id });
  }

  remove(id: string): void {
    if (!this.#entries.has(id)) return;
    this.#drop(id);
    this.#append({ op: 'drop', id });
  }

  /** Unused clients past their lifetime go. */
  sweep(now = Date.now()): void {
    for (const [id, at] of this.#unused) {
      if (at + this.#limits.unusedTtlMs > now) break; // oldest first: the rest are younger
      this.remove(id);
    }
  }

  /** How many clients are kept, and how many of them were never used. */
  counts(): { all: number; unused: number } {
    return { all: this.#entries.size, unused: this.#unused.size };
  }

  #put(client: OAuthClientInformationFull, at: number, used: boolean): void {
    this.#drop(client.client_id);
    const bytes = JSON.stringify(client).length + 40;
    this.#entries.set(client.client_id, { client, at, used, bytes });
    this.#liveBytes += bytes;
    if (!used) {
      this.#unused.set(client.client_id, at);
      this.#unusedBytes += bytes;
    }
  }

  #use(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry || entry.used) return;
    entry.used = true;
    this.#unused.delete(id);
    this.#unusedBytes -= entry.bytes;
  }

  #drop(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#liveBytes -= entry.bytes;
    if (this.#unused.delete(id)) this.#unusedBytes -= entry.bytes;
  }

  #append(line: Line): void {
    const text = `${JSON.stringify(line)}\n`;
    appendFileSync(this.#file, text, { mode: 0o600 });
    this.#fileBytes += Buffer.byteLength(text);
    // Rewriting costs the live set once per as many bytes appended: amortised, never per registration.
    if (this.#fileBytes > 2 * this.#liveBytes + 256 * 1024) this.#compact();
  }

  #compact(): void {
    const lines = [...this.#entries.values()].map(({ client, at, used }) =>
      JSON.stringify({ op: 'add', client, at, ...(used ? { used } : {}) }),
    );
    const text = lines.length ? `${lines.join('\n')}\n` : '';
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, this.#file);
    this.#fileBytes = Buffer.byteLength(text);
  }
}
