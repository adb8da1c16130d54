import { randomBytes } from 'node:crypto';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Pool } from 'pg';
import type { Grant } from '../http/grants.js';
import { crypt } from './crypt.js';
import {
  type AccessRecord,
  APPROVED_GRACE_MS,
  type CodeRecord,
  type FormRecord,
  MAX_PENDING,
  type SignInStore,
  type SignInStoreOptions,
  type StoredPending,
} from './sign-in-store.js';

/** Times are epoch milliseconds (bigint), as the embedded store keeps them. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS cms_mcp_keys (name text PRIMARY KEY, key bytea NOT NULL);
CREATE TABLE IF NOT EXISTS cms_mcp_clients (
  id text PRIMARY KEY, client jsonb NOT NULL, at bigint NOT NULL, used boolean NOT NULL DEFAULT false, bytes integer NOT NULL);
CREATE INDEX IF NOT EXISTS cms_mcp_clients_unused ON cms_mcp_clients (at) WHERE NOT used;
CREATE TABLE IF NOT EXISTS cms_mcp_grants (
  id text PRIMARY KEY, client_id text NOT NULL, user_login text NOT NULL, app_uuid text NOT NULL,
  password text NOT NULL, refresh_hash text NOT NULL, refresh_expires_at bigint NOT NULL, resource text NOT NULL);
CREATE INDEX IF NOT EXISTS cms_mcp_grants_refresh ON cms_mcp_grants (refresh_hash);
CREATE TABLE IF NOT EXISTS cms_mcp_codes (hash text PRIMARY KEY, code jsonb NOT NULL, expires_at bigint NOT NULL);
CREATE TABLE IF NOT EXISTS cms_mcp_access (
  hash text PRIMARY KEY, grant_id text NOT NULL REFERENCES cms_mcp_grants (id) ON DELETE CASCADE,
  client_id text NOT NULL, resource text NOT NULL, expires_at bigint NOT NULL);
CREATE INDEX IF NOT EXISTS cms_mcp_access_grant ON cms_mcp_access (grant_id);
CREATE TABLE IF NOT EXISTS cms_mcp_forms (hash text PRIMARY KEY, form jsonb NOT NULL, expires_at bigint NOT NULL);
CREATE TABLE IF NOT EXISTS cms_mcp_approved (
  hash text PRIMARY KEY, pending jsonb NOT NULL, used boolean NOT NULL DEFAULT false, expires_at bigint NOT NULL);
CREATE TABLE IF NOT EXISTS cms_mcp_rate_limits (
  key text NOT NULL, window_start bigint NOT NULL, window_ms bigint NOT NULL, hits integer NOT NULL,
  PRIMARY KEY (key, window_start));
`;

interface GrantRow {
  id: string;
  client_id: string;
  user_login: string;
  app_uuid: string;
  password: string;
  refresh_hash: string;
  refresh_expires_at: string;
  resource: string;
}

const grantOf = (row: GrantRow | undefined): Grant | undefined =>
  row && {
    id: row.id,
    clientId: row.client_id,
    userLogin: row.user_login,
    appUuid: row.app_uuid,
    password: row.password,
    refreshHash: row.refresh_hash,
    refreshExpiresAt: Number(row.refresh_expires_at),
    resource: row.resource,
  };

/**
 * The sign-in store in PostgreSQL, on the server store's pool (postgres.ts), so that any replica
 * serves any step of a sign-in and any request of a signed-in person. Every statement is
 * parameterised; secrets are sealed (application passwords, client secrets) or kept as SHA-256
 * digests (codes, tokens, form and callback keys), as in the embedded store. Single-use steps are
 * one atomic statement each: a code is taken by DELETE … RETURNING, a refresh token rotated by
 * UPDATE … WHERE refresh_hash = the old one, an approved request marked used by UPDATE … WHERE NOT used.
 */
export async function postgresSignInStore(pool: Pool, options: SignInStoreOptions): Promise<SignInStore> {
  const limits = { maxUnused: 1000, maxUnusedBytes: 4 * 1024 * 1024, unusedTtlMs: 86400_000, ...options.clients };
  // Two processes starting at once may both create: one schema change at a time.
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(4904917)');
    try {
      await lock.query(SCHEMA);
    } finally {
      await lock.query('SELECT pg_advisory_unlock(4904917)');
    }
  } finally {
    lock.release();
  }
  // The key of application passwords: made by the first process, read by every other.
  await pool.query('INSERT INTO cms_mcp_keys (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', ['sign-in', randomBytes(32)]);
  const keyRow = await pool.query<{ key: Buffer }>('SELECT key FROM cms_mcp_keys WHERE name = $1', ['sign-in']);
  const key = keyRow.rows[0]?.key;
  if (key?.length !== 32) throw new Error('the PostgreSQL store has no sign-in key');
  const { seal, open, mac } = crypt(key);
  const one = async <T>(sql: string, params: unknown[]): Promise<T | undefined> =>
    (await pool.query(sql, params)).rows[0] as T | undefined;

  return {
    kind: 'postgres',
    seal,
    open,
    mac,
    async getClient(id) {
      const row = await one<{ client: OAuthClientInformationFull }>(
        'SELECT client FROM cms_mcp_clients WHERE id = $1 AND (used OR at > $2)',
        [id, Date.now() - limits.unusedTtlMs],
      );
      if (!row) return undefined;
      const { client } = row;
      return client.client_secret ? { ...client, client_secret: open(client.client_secret) } : client;
    },
    async addClient(client) {
      const sealed = client.client_secret ? { ...client, client_secret: seal(client.client_secret) } : client;
      const text = JSON.stringify(sealed);
      await pool.query(
        `INSERT INTO cms_mcp_clients (id, client, at, used, bytes) VALUES ($1, $2, $3, false, $4)
         ON CONFLICT (id) DO UPDATE SET client = EXCLUDED.client, at = EXCLUDED.at, used = false, bytes = EXCLUDED.bytes`,
        [sealed.client_id, text, Date.now(), text.length + 40],
      );
      // What strangers can leave here is bounded: the oldest unused clients past either limit go.
      await pool.query(
        `DELETE FROM cms_mcp_clients WHERE id IN (
           SELECT id FROM (
             SELECT id, row_number() OVER w AS n, sum(bytes) OVER w AS total
             FROM cms_mcp_clients WHERE NOT used WINDOW w AS (ORDER BY at DESC, id DESC)) newest
           WHERE n > $1 OR total > $2)`,
        [limits.maxUnused, limits.maxUnusedBytes],
      );
    },
    async markClientUsed(id) {
      await pool.query('UPDATE cms_mcp_clients SET used = true WHERE id = $1 AND NOT used', [id]);
    },
    async grant(id) {
      return grantOf(await one<GrantRow>('SELECT * FROM cms_mcp_grants WHERE id = $1', [id]));
    },
    async grantByRefresh(refreshHash) {
      if (!refreshHash) return undefined;
      return grantOf(await one<GrantRow>('SELECT * FROM cms_mcp_grants WHERE refresh_hash = $1', [refreshHash]));
    },
    async putGrant(grant) {
      await pool.query(
        `INSERT INTO cms_mcp_grants (id, client_id, user_login, app_uuid, password, refresh_hash, refresh_expires_at, resource)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [grant.id, grant.clientId, grant.userLogin, grant.appUuid, grant.password, grant.refreshHash, grant.refreshExpiresAt, grant.resource],
      );
    },
    async dropGrant(id) {
      // Its access tokens go with it (ON DELETE CASCADE).
      return grantOf(await one<GrantRow>('DELETE FROM cms_mcp_grants WHERE id = $1 RETURNING *', [id]));
    },
    async rotateRefresh(grantId, fromHash, toHash, expiresAt) {
      return grantOf(
        await one<GrantRow>(
          'UPDATE cms_mcp_grants SET refresh_hash = $3, refresh_expires_at = $4 WHERE id = $1 AND refresh_hash = $2 RETURNING *',
          [grantId, fromHash, toHash, expiresAt],
        ),
      );
    },
    async expiredGrants(now) {
      const rows = await pool.query<GrantRow>(
        'SELECT * FROM cms_mcp_grants WHERE refresh_expires_at > 0 AND refresh_expires_at < $1 LIMIT 100',
        [now],
      );
      return rows.rows.map((row) => grantOf(row) as Grant);
    },
    async putCode(codeHash, code) {
      await pool.query('INSERT INTO cms_mcp_codes (hash, code, expires_at) VALUES ($1, $2, $3)', [
        codeHash,
        JSON.stringify(code),
        code.expiresAt,
      ]);
    },
    async peekCode(codeHash) {
      return (await one<{ code: CodeRecord }>('SELECT code FROM cms_mcp_codes WHERE hash = $1', [codeHash]))?.code;
    },
    async takeCode(codeHash) {
      return (await one<{ code: CodeRecord }>('DELETE FROM cms_mcp_codes WHERE hash = $1 RETURNING code', [codeHash]))?.code;
    },
    async putAccess(tokenHash, access) {
      await pool.query(
        'INSERT INTO cms_mcp_access (hash, grant_id, client_id, resource, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [tokenHash, access.grantId, access.clientId, access.resource, access.expiresAt],
      );
    },
    async access(tokenHash) {
      const row = await one<{ grant_id: string; client_id: string; resource: string; expires_at: string }>(
        'SELECT grant_id, client_id, resource, expires_at FROM cms_mcp_access WHERE hash = $1',
        [tokenHash],
      );
      return row && ({ grantId: row.grant_id, clientId: row.client_id, resource: row.resource, expiresAt: Number(row.expires_at) } satisfies AccessRecord);
    },
    async putForm(formHash, form) {
      await pool.query('INSERT INTO cms_mcp_forms (hash, form, expires_at) VALUES ($1, $2, $3)', [
        formHash,
        JSON.stringify(form),
        form.pending.expiresAt,
      ]);
    },
    async peekForm(formHash) {
      return (await one<{ form: FormRecord }>('SELECT form FROM cms_mcp_forms WHERE hash = $1', [formHash]))?.form;
    },
    async takeForm(formHash) {
      return (await one<{ form: FormRecord }>('DELETE FROM cms_mcp_forms WHERE hash = $1 RETURNING form', [formHash]))?.form;
    },
    async putApproved(keyHash, pending) {
      await pool.query('INSERT INTO cms_mcp_approved (hash, pending, expires_at) VALUES ($1, $2, $3)', [
        keyHash,
        JSON.stringify(pending),
        pending.expiresAt,
      ]);
    },
    async takeApproved(keyHash) {
      const first = await one<{ pending: StoredPending }>(
        'UPDATE cms_mcp_approved SET used = true WHERE hash = $1 AND NOT used RETURNING pending',
        [keyHash],
      );
      if (first) return { pending: first.pending, used: false };
      const again = await one<{ pending: StoredPending }>('DELETE FROM cms_mcp_approved WHERE hash = $1 RETURNING pending', [keyHash]);
      return again && { pending: again.pending, used: true };
    },
    async hit(key, windowMs) {
      // The window is the database's clock's, so replicas with skewed clocks count in the same one.
      const row = await one<{ hits: number; window_start: string }>(
        `INSERT INTO cms_mcp_rate_limits (key, window_start, window_ms, hits)
         VALUES ($1, floor(extract(epoch FROM clock_timestamp()) * 1000 / $2::bigint)::bigint * $2::bigint, $2::bigint, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET hits = cms_mcp_rate_limits.hits + 1
         RETURNING hits, window_start`,
        [key, windowMs],
      );
      if (!row) throw new Error('the rate-limit counter was not written');
      return { count: row.hits, resetAt: Number(row.window_start) + windowMs };
    },
    async sweep(now) {
      await pool.query('DELETE FROM cms_mcp_codes WHERE expires_at < $1', [now]);
      await pool.query('DELETE FROM cms_mcp_access WHERE expires_at < $1', [now]);
      await pool.query('DELETE FROM cms_mcp_forms WHERE expires_at < $1', [now]);
      await pool.query('DELETE FROM cms_mcp_approved WHERE expires_at < $1', [now - APPROVED_GRACE_MS]);
      await pool.query('DELETE FROM cms_mcp_rate_limits WHERE window_start + window_ms < $1', [now]);
      await pool.query('DELETE FROM cms_mcp_clients WHERE NOT used AND at <= $1', [now - limits.unusedTtlMs]);
      // /authorize needs no sign-in: what is waiting is bounded (the newest kept), as in memory.
      for (const table of ['cms_mcp_forms', 'cms_mcp_approved'])
        await pool.query(
          `DELETE FROM ${table} WHERE hash IN (SELECT hash FROM ${table} ORDER BY expires_at DESC OFFSET $1)`,
          [MAX_PENDING],
        );
    },
    close: async () => {},
  };
}
