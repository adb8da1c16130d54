import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The sealing key of 2026-07-28 `requestState` (MRTR approvals, docs/remote-mcp.md): 32 random
 * bytes in `<stateDir>/request-state.key` (0600), made on first use and kept, so a state sealed
 * before a restart (or by another process on the same store) still opens. Without a state
 * directory (stdio, a library caller): a key of this process only.
 */
export function sealingKey(stateDir?: string): Uint8Array {
  if (!stateDir) return randomBytes(32);
  const file = path.join(stateDir, 'request-state.key');
  try {
    const key = readFileSync(file);
    if (key.length >= 32) return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // `wx`: two servers starting at once keep the first one's key.
  try {
    writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file);
    throw err;
  }
  chmodSync(file, 0o600);
  return key;
}

/** What one approval question's `requestState` binds (signed, not secret: digests only). */
export interface SealedApproval {
  /** The tool called. */
  tool: string;
  /** Digest of the call's arguments as sent: the retry must be the same call. */
  args: string;
  /** The site(s) the call acts on. */
  site: string;
  /** Digest of the review the person was shown (its words and the params it resolved). */
  review: string;
  /** The signed-in person (or the configured account). */
  user: string;
  /** Once only: a state is used by its first retry. */
  nonce: string;
}

export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('base64url');
}

/** JSON with keys sorted, so the same params give the same digest whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const newNonce = (): string => randomBytes(16).toString('base64url');

/** Which sealed states were used: a replayed one is refused. The embedded store keeps them in memory. */
export interface UsedStates {
  /** False when `nonce` was used before; else remembers it until `expiresAt` (ms). */
  use(nonce: string, expiresAt: number): Promise<boolean>;
}

export function memoryUsedStates(): UsedStates {
  const used = new Map<string, number>();
  return {
    async use(nonce, expiresAt) {
      const now = Date.now();
      for (const [key, until] of used) if (until < now) used.delete(key);
      if (used.has(nonce)) return false;
      used.set(nonce, expiresAt);
      return true;
    },
  };
}
