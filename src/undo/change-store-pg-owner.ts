import type { Client } from 'pg';

/**
 * Whose intents still run, in the PostgreSQL store (issue #49; #59.2): each process that writes
 * intents holds a session advisory lock (OWNER_CLASS, its key) on a connection of its own, and
 * every intent it commits names the key. PostgreSQL releases the lock when that session ends.
 *
 * A session also ends when PostgreSQL restarts or the network drops, while the process lives on
 * and its write may still land. So: the process takes the same key again as soon as it can
 * (retrying while it has intents under way) and before it completes any of them; and a reader
 * counts an intent's owner as gone only when that is proven — its lock is free and was taken in
 * the server's present life (the intent began after PostgreSQL last started), or PostgreSQL has
 * been up longer than RECLAIM, time enough for a live owner to have taken its key again.
 * Otherwise the intent is still running (`change_in_progress`), never reconciled under it.
 */

export const OWNER_CLASS = 4904918;
/** How long after PostgreSQL starts a live owner has to take its key again. */
const RECLAIM = '60 seconds';

/** This process's owner key in one store. */
export interface Owner {
  /** The key, kept across reconnects: its intents under way name it. */
  key?: number;
  /** The lock held now (undefined while it is not). */
  held?: Promise<number>;
  client?: Client;
  /** Intents of this process not completed yet: while there are any, a lost lock is taken again. */
  mine: Set<string>;
  retry?: NodeJS.Timeout;
  tries: number;
  closed?: boolean;
}

export const newOwner = (): Owner => ({ mine: new Set(), tries: 0 });

/** Holds this process's owner lock (the same key again after a reconnect) and returns its key. */
export function holdOwner(url: string, o: Owner): Promise<number> {
  if (o.held) return o.held;
  const held = (async () => {
    const { default: pg } = await import('pg');
    const client: Client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5000 });
    const lost = () => {
      if (o.client !== client) return;
      o.held = undefined;
      o.client = undefined;
      reclaim(url, o);
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      const key = await lockKey(client, o.key);
      o.key = key;
      o.client = client;
      o.tries = 0;
      // The liveness connection alone does not keep a process running.
      (client as unknown as { connection?: { stream?: { unref?(): void } } }).connection?.stream?.unref?.();
      return key;
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  })();
  o.held = held;
  held.catch(() => {
    if (o.held === held) o.held = undefined;
  });
  return held;
}

async function lockKey(client: Client, key: number | undefined): Promise<number> {
  const tryKey = async (k: number) =>
    (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [OWNER_CLASS, k])).rows[0]?.ok === true;
  if (key !== undefined) {
    if (await tryKey(key)) return key;
    // Its old session is not gone yet (a dropped network, before keepalive ends it): later.
    throw new Error(`this process's owner lock ${key} is still held by its previous session`);
  }
  for (let tries = 0; tries < 20; tries++) {
    const k = 1 + Math.floor(Math.random() * 0x7ffffffe);
    if (await tryKey(k)) return k;
  }
  throw new Error('no free owner key');
}

/** The lock was lost with its connection: taken again, soon and repeatedly, while intents are under way. */
function reclaim(url: string, o: Owner): void {
  if (o.closed || o.retry || o.mine.size === 0) return;
  const delay = Math.min(5000, 250 * 2 ** o.tries++);
  o.retry = setTimeout(() => {
    o.retry = undefined;
    holdOwner(url, o).catch(() => reclaim(url, o));
  }, delay);
  o.retry.unref();
}

export async function releaseOwner(o: Owner): Promise<void> {
  o.closed = true;
  if (o.retry) clearTimeout(o.retry);
  const client = o.client;
  o.held = undefined;
  o.client = undefined;
  await client?.end().catch(() => {});
}

/**
 * `orphaned` of a row: a pending intent whose owner is proven gone (see above). Rows written
 * before `begun` existed count as begun in the server's present life (the lock decides, as before).
 */
export const ORPHANED =
  "(status = 'pending' AND owner IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.classid = " +
  `${OWNER_CLASS}::oid AND l.objid = owner::oid AND l.objsubid = 2 AND l.granted) AND NOT COALESCE(begun < pg_postmaster_start_time() AND now() < pg_postmaster_start_time() + interval '${RECLAIM}', false)) AS orphaned`;
