import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { ServerStore } from './server-store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS cms_mcp_keys (name text PRIMARY KEY, key bytea NOT NULL);
CREATE TABLE IF NOT EXISTS cms_mcp_used_states (nonce text PRIMARY KEY, expires_at timestamptz NOT NULL);
CREATE INDEX IF NOT EXISTS cms_mcp_used_states_expiry ON cms_mcp_used_states (expires_at);
`;

/**
 * The server store in PostgreSQL: the sealing key (made by the first process, read by the
 * others) and the used `requestState` nonces (an insert that a second use finds taken). Every
 * statement is one round trip; a used state is refused by the primary key, whichever process saw
 * it first.
 */
export async function postgresStore(url: string): Promise<ServerStore> {
  const { default: pg } = await import('pg');
  const pool: Pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000 });
  // A lost connection of the pool is not the server's end: the next query opens another.
  pool.on('error', (err) => process.stderr.write(`cms-admin mcp: PostgreSQL: ${err.message}\n`));
  try {
    // Two processes starting at once may both create: one schema change at a time (the lock is
    // the connection's: taken and released on one client, never on two of the pool's).
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(4904917)');
      await client.query(SCHEMA).finally(() => client.query('SELECT pg_advisory_unlock(4904917)'));
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => {});
    throw new Error(`cannot use the PostgreSQL store (${(err as Error).message}): check --store / CMS_STORE`);
  }
  let key: Uint8Array | undefined;
  let lastSweep = 0;
  return {
    kind: 'postgres',
    async sealingKey() {
      if (key) return key;
      await pool.query('INSERT INTO cms_mcp_keys (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        'request-state',
        randomBytes(32),
      ]);
      const row = await pool.query<{ key: Buffer }>('SELECT key FROM cms_mcp_keys WHERE name = $1', ['request-state']);
      key = row.rows[0]?.key;
      if (!key) throw new Error('the PostgreSQL store has no sealing key');
      return key;
    },
    used: {
      async use(nonce, expiresAt) {
        if (Date.now() - lastSweep > 60_000) {
          lastSweep = Date.now();
          await pool.query('DELETE FROM cms_mcp_used_states WHERE expires_at < now()');
        }
        const inserted = await pool.query(
          'INSERT INTO cms_mcp_used_states (nonce, expires_at) VALUES ($1, to_timestamp($2::double precision / 1000)) ON CONFLICT (nonce) DO NOTHING',
          [nonce, expiresAt],
        );
        return inserted.rowCount === 1;
      },
    },
    signIn: async (options) => (await import('./sign-in-postgres.js')).postgresSignInStore(pool, options),
    close: () => pool.end(),
  };
}
