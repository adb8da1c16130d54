import type { Pool, PoolClient } from 'pg';
import type { ChangeEntry, ChangeJournal } from '../tools/journal-port.js';
import { ToolError } from '../tools/tool-error.js';
import { holdOwner, newOwner, ORPHANED, type Owner, releaseOwner } from './change-store-pg-owner.js';
import { entryGone, firstLine, forReading, journalUnavailable, type PruneRule, retention } from './change-store-shared.js';

/**
 * The change store in PostgreSQL (issue #49, "many replicas, one PostgreSQL"): the same rows
 * and views as the SQLite store (change-store.ts) — every entry keyed by its site, account and
 * run; an intent committed before the write, completed in place, discarded when the write
 * failed and changed nothing; newest-first reads a page at a time; retention by DELETE — in one
 * database that several `cms-admin mcp --http --store postgres://…` processes share, so a change
 * made through one is listed and undone through another.
 *
 * Whose intent is still running: each process that writes intents holds a session advisory
 * lock of its own on one connection, and every intent it commits names its key
 * (change-store-pg-owner.ts). A pending entry whose owner is proven gone — the process died, or
 * its host did (TCP keepalive) — is read as incomplete ("may have been applied"; undo reconciles
 * it from the site), on any replica; one whose owner may be alive is still running, wherever it
 * runs — also across a PostgreSQL restart, after which the owner takes its key again (#59.2).
 *
 * Undos of one site are serialised across processes by `pg_advisory_lock(UNDO_CLASS, site)`,
 * held on one connection while the undo runs (released by PostgreSQL if the process dies).
 */

const UNDO_CLASS = 4904919;
const SCHEMA_LOCK = 4904920;
/** Rows a newest-first read takes at a time. */
const PAGE = 200;
/** How long an undo waits for another process's undo of the same site. */
const UNDO_WAIT = '120s';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS cms_changes (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  site text NOT NULL,
  user_id bigint,
  login text,
  run text,
  tool text NOT NULL,
  status text NOT NULL,
  undoes text,
  at text NOT NULL,
  owner integer,
  begun timestamptz DEFAULT now(),
  doc text NOT NULL
);
-- A table made before #59 gets the column (checked first: ALTER TABLE would lock it on every start).
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'cms_changes'::regclass AND attname = 'begun' AND NOT attisdropped) THEN
    ALTER TABLE cms_changes ADD COLUMN begun timestamptz DEFAULT now();
  END IF;
END $$;
CREATE INDEX IF NOT EXISTS cms_changes_site ON cms_changes (site, seq);
CREATE INDEX IF NOT EXISTS cms_changes_site_user ON cms_changes (site, user_id, seq);
CREATE INDEX IF NOT EXISTS cms_changes_run ON cms_changes (run, site, seq);
CREATE INDEX IF NOT EXISTS cms_changes_at ON cms_changes (at);
`;

/** A `postgres://` or `postgresql://` URL: a change store in PostgreSQL rather than a file. */
export function isPostgresUrl(spec: string | undefined): spec is string {
  return typeof spec === 'string' && /^postgres(ql)?:\/\//i.test(spec);
}

/** The URL as messages name it: no password, no query (which may carry one). */
export function redactedStoreUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '';
    u.search = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://…';
  }
}

interface Handle {
  pool: Pool;
  /** This process's owner key (its liveness lock), taken when it first commits an intent. */
  owner: Owner;
  appends: number;
}

const handles = new Map<string, Promise<Handle>>();

async function open(url: string): Promise<Handle> {
  const known = handles.get(url);
  if (known) return known;
  const opening = (async () => {
    const { default: pg } = await import('pg');
    const pool: Pool = new pg.Pool({
      connectionString: url,
      max: 4,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      // A command that reads the store (`changes`, `undo`) exits when it is done.
      allowExitOnIdle: true,
    });
    pool.on('error', (err) => process.stderr.write(`cms-admin: the change store ${redactedStoreUrl(url)}: ${firstLine(err)}\n`));
    try {
      const client = await pool.connect();
      try {
        // Two processes starting at once may both create: one schema change at a time.
        await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
        try {
          await client.query(SCHEMA);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]);
        }
      } finally {
        client.release();
      }
    } catch (err) {
      await pool.end().catch(() => {});
      throw journalUnavailable(redactedStoreUrl(url), firstLine(err));
    }
    return { pool, owner: newOwner(), appends: 0 };
  })();
  handles.set(url, opening);
  opening.catch(() => handles.delete(url));
  return opening;
}

const COLUMNS = `seq, doc, ${ORPHANED}`;

interface Row {
  seq: string;
  doc: string;
  orphaned: boolean;
}

/**
 * An entry as read: a pending intent whose process is gone loses its pid, so `stillRunning`
 * (change-store.ts) reads it as incomplete on every replica; one whose process lives keeps it.
 */
function parse(r: Row): ChangeEntry {
  const entry = JSON.parse(r.doc) as ChangeEntry;
  if (r.orphaned) delete entry.pid;
  return entry;
}

function values(entry: ChangeEntry, site: string, owner: number | null): unknown[] {
  return [
    entry.change_id,
    site,
    entry.user_id ?? null,
    entry.user ?? null,
    entry.run_id ?? null,
    entry.tool,
    entry.status ?? 'done',
    entry.undoes ?? null,
    entry.at,
    owner,
    JSON.stringify({ ...entry, site }),
  ];
}

/**
 * The change store at a PostgreSQL URL. `journal()` reads every site (the operator's view);
 * `journal(site)` and `forSite` are what a context uses. The same shape as `changeStore(file)`.
 */
export function pgChangeStore(url: string) {
  const name = redactedStoreUrl(url);
  const ready = () => open(url).catch(unavailable(name));
  const readable = () => ready().catch((err: unknown) => Promise.reject(forReading(err)));
  const store = {
    /** The store as messages name it (no password). */
    file: name,
    journal(site?: string): ChangeJournal {
      const where = site ? 'site = $1 AND ' : '';
      const siteArgs: unknown[] = site ? [site] : [];
      const n = siteArgs.length;
      const view: ChangeJournal = {
        path: name,
        ...(site ? { site } : {}),
        forSite: (other) => store.journal(other),
        async append(entry) {
          const h = await ready();
          const at = entry.site ?? site;
          if (!at) throw new Error('a change entry without its site (the journal view has none)');
          if (site && at !== site) throw new Error(`a change on ${at} written to the journal view of ${site}`);
          try {
            const owner = entry.status === 'pending' ? await holdOwner(url, h.owner) : null;
            await h.pool.query(
              'INSERT INTO cms_changes (id, site, user_id, login, run, tool, status, undoes, at, owner, doc) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)',
              values(entry, at, owner),
            );
            if (owner !== null) h.owner.mine.add(entry.change_id);
          } catch (err) {
            throw journalUnavailable(name, firstLine(err));
          }
          if (h.appends++ % 64 === 0) {
            await autoRetain(h.pool).catch((err) =>
              process.stderr.write(`cms-admin: the change journal ${name} could not be pruned: ${firstLine(err)}\n`),
            );
          }
        },
        async update(entry) {
          const h = await ready();
          const at = entry.site ?? site;
          if (!at) throw new Error('a change entry without its site');
          try {
            // An intent of ours completes only while its owner lock is held again (#59.2).
            if (h.owner.mine.has(entry.change_id)) await holdOwner(url, h.owner);
            const [id, key, ...columns] = values(entry, at, null);
            const out = await h.pool.query(
              `UPDATE cms_changes SET user_id = $1, login = $2, run = $3, tool = $4, status = $5, undoes = $6, at = $7, owner = CASE WHEN $5 = 'pending' THEN owner END, doc = $8 WHERE id = $9 AND site = $10`,
              [...columns.slice(0, 7), columns[8], id, key],
            );
            if (out.rowCount !== 1) throw entryGone(name, entry.change_id);
            if (entry.status !== 'pending') h.owner.mine.delete(entry.change_id);
          } catch (err) {
            throw err instanceof ToolError ? err : journalUnavailable(name, firstLine(err));
          }
        },
        async discard(changeId) {
          const h = await ready();
          await h.pool.query(`DELETE FROM cms_changes WHERE ${where}id = $${n + 1} AND status = 'pending'`, [...siteArgs, changeId]);
          h.owner.mine.delete(changeId);
        },
        async entries() {
          const h = await readable();
          const rows = await h.pool.query<Row>(`SELECT ${COLUMNS} FROM cms_changes ${site ? 'WHERE site = $1' : ''} ORDER BY seq`, siteArgs);
          return rows.rows.map(parse);
        },
        async *latest() {
          const h = await readable();
          let before = '9223372036854775807';
          for (;;) {
            const rows = (
              await h.pool.query<Row>(
                `SELECT ${COLUMNS} FROM cms_changes WHERE ${where}seq < $${n + 1} ORDER BY seq DESC LIMIT ${PAGE}`,
                [...siteArgs, before],
              )
            ).rows;
            for (const r of rows) yield parse(r);
            if (rows.length < PAGE) return;
            before = (rows.at(-1) as Row).seq;
          }
        },
        async byRun(runId) {
          const h = await readable();
          const rows = await h.pool.query<Row>(
            `SELECT ${COLUMNS} FROM cms_changes WHERE run = $1 ${site ? 'AND site = $2' : ''} ORDER BY seq`,
            [runId, ...siteArgs],
          );
          return rows.rows.map(parse);
        },
        ...(site ? { serialize: <T>(run: () => Promise<T>) => withSiteLock(url, name, site, run) } : {}),
      };
      return view;
    },
    async runSites(runId: string): Promise<string[]> {
      const h = await readable();
      return (await h.pool.query<{ site: string }>('SELECT DISTINCT site FROM cms_changes WHERE run = $1', [runId])).rows.map((r) => r.site);
    },
    async count(site?: string): Promise<number> {
      const h = await readable();
      const out = await h.pool.query<{ n: string }>(`SELECT count(*) AS n FROM cms_changes ${site ? 'WHERE site = $1' : ''}`, site ? [site] : []);
      return Number(out.rows[0]?.n ?? 0);
    },
    /** Closes this process's connections to the store (they open again on the next use). */
    async close(): Promise<void> {
      const known = handles.get(url);
      handles.delete(url);
      const h = await known?.catch(() => undefined);
      if (!h) return;
      await releaseOwner(h.owner);
      await h.pool.end().catch(() => {});
    },
    /** Deletes entries older than the age, then the oldest until the entries take at most the size. */
    async prune(rule: PruneRule): Promise<{ removed: number; kept: number }> {
      const h = await ready();
      let removed = 0;
      if (rule.olderThanMs !== undefined) {
        const cutoff = new Date(Date.now() - rule.olderThanMs).toISOString();
        removed += (await h.pool.query('DELETE FROM cms_changes WHERE at < $1', [cutoff])).rowCount ?? 0;
      }
      if (rule.maxBytes !== undefined) {
        // The newest entries whose documents fit in the size are kept; the older ones go.
        removed +=
          (
            await h.pool.query(
              'DELETE FROM cms_changes WHERE seq IN (SELECT seq FROM (SELECT seq, sum(octet_length(doc)) OVER (ORDER BY seq DESC) AS upto FROM cms_changes) t WHERE upto > $1)',
              [rule.maxBytes],
            )
          ).rowCount ?? 0;
      }
      return { removed, kept: await store.count() };
    },
  };
  return store;
}

export type PgChangeStore = ReturnType<typeof pgChangeStore>;

/** Past CMS_JOURNAL_MAX_MB (the table's size on disk), entries older than CMS_JOURNAL_KEEP_DAYS go. */
async function autoRetain(pool: Pool): Promise<void> {
  const { maxBytes, keepMs } = retention();
  if (maxBytes <= 0) return;
  const size = await pool.query<{ n: string }>("SELECT pg_total_relation_size('cms_changes') AS n");
  if (Number(size.rows[0]?.n ?? 0) <= maxBytes) return;
  await pool.query('DELETE FROM cms_changes WHERE at < $1', [new Date(Date.now() - keepMs).toISOString()]);
}

/**
 * Runs `run` holding the undo lock of `site` in this PostgreSQL: one undo of a site at a time
 * across every process that shares the store. A process that dies releases it (its session ends).
 */
async function withSiteLock<T>(url: string, name: string, site: string, run: () => Promise<T>): Promise<T> {
  const h = await open(url).catch(unavailable(name));
  let client: PoolClient;
  try {
    client = await h.pool.connect();
  } catch (err) {
    throw journalUnavailable(name, firstLine(err));
  }
  let locked = false;
  try {
    try {
      await client.query(`SET lock_timeout = '${UNDO_WAIT}'`);
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [UNDO_CLASS, site]);
      locked = true;
    } catch (err) {
      if ((err as { code?: string }).code === '55P03')
        throw new ToolError('undo_busy', `Another undo of ${site} is still running (change store ${name}). Nothing was changed.`, {
          hint: 'Try again when it has finished; the lock of a process that stopped is released by PostgreSQL.',
        });
      throw journalUnavailable(name, firstLine(err));
    }
    return await run();
  } finally {
    if (locked) await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [UNDO_CLASS, site]).catch(() => {});
    await client.query('RESET lock_timeout').catch(() => {});
    client.release();
  }
}

function unavailable(name: string) {
  return (err: unknown): never => {
    if (err instanceof ToolError) throw err;
    throw journalUnavailable(name, firstLine(err));
  };
}
