import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { ChangeEntry, ChangeJournal } from '../tools/journal-port.js';
import { ToolError } from '../tools/tool-error.js';
import { importJsonl, legacyJournalFor } from './change-store-legacy.js';
import { loadSqlite, type SqliteDatabase, type SqliteValue } from './sqlite.js';

/**
 * The change store (issue #47): one SQLite database (`node:sqlite`, WAL) holding every site's
 * changes, each row keyed by its site, its account and its run. Writers in several processes at
 * once commit whole transactions (a busy timeout waits for the others); nothing is rotated by
 * rename, so no concurrent append can be lost. Readers never load the whole history: the
 * latest entries of a site, a change by id and a run's entries are index reads.
 *
 * A journal (tools/journal-port.ts) is a view of the store for one site (`forSite`); the view a
 * context uses is bound to that context's site by createContext, so one store shared by many
 * sites (a fleet, a network, `--journal FILE` for all) never hands one site's change to another.
 */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  site TEXT NOT NULL,
  user_id INTEGER,
  login TEXT,
  run TEXT,
  tool TEXT NOT NULL,
  status TEXT NOT NULL,
  undoes TEXT,
  at TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS changes_site ON changes(site, seq);
CREATE INDEX IF NOT EXISTS changes_site_user ON changes(site, user_id, seq);
CREATE INDEX IF NOT EXISTS changes_run ON changes(run, site, seq);
CREATE INDEX IF NOT EXISTS changes_at ON changes(at);
CREATE TABLE IF NOT EXISTS imports (file TEXT PRIMARY KEY, site TEXT NOT NULL, bytes INTEGER NOT NULL, at TEXT NOT NULL);
`;

/** Rows a newest-first read takes at a time (a page of the index, not the history). */
const PAGE = 200;

/** The store cannot be written: the write it was to record is not made (issue #47). */
export function journalUnavailable(file: string, cause: string): ToolError {
  return new ToolError(
    'journal_unavailable',
    `The change journal ${file} cannot be written (${cause}), so this write was not made: it could not be undone.`,
    {
      hint: 'Fix the cause (disk space, permissions, the path), or choose another journal with --journal FILE / CMS_JOURNAL=FILE; --journal off (CMS_JOURNAL=off) writes without undo.',
    },
  );
}

interface Handle {
  db: SqliteDatabase;
  ino: number;
  appends: number;
}

const handles = new Map<string, Promise<Handle>>();

const SQLITE_MAGIC = 'SQLite format 3\0';

/** The database a journal path names: the path itself, or `<path>.db` beside a JSON Lines journal of before #47. */
export function storeFileFor(file: string): { db: string; legacy?: string } {
  let head = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(16);
      head = buf.subarray(0, readSync(fd, buf, 0, 16, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return { db: file };
  }
  if (head === '' || head === SQLITE_MAGIC) return { db: file };
  return { db: `${file}.db`, legacy: file };
}

async function open(file: string): Promise<Handle> {
  const known = handles.get(file);
  if (known) {
    const handle = await known.catch(() => undefined);
    // The same file still (a test or a person may remove it): else open it anew.
    if (handle && inode(file) === handle.ino) return handle;
    handles.delete(file);
    try {
      handle?.db.close();
    } catch {
      // already closed
    }
  }
  const opening = (async () => {
    const { DatabaseSync } = await loadSqlite();
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // Created empty and private first: SQLite makes its -wal and -shm files with the same mode.
      closeSync(openSync(file, 'a', 0o600));
      tighten(file);
      const db = new DatabaseSync(file, { timeout: 15_000 });
      // auto_vacuum first: it takes effect only before the database's first table.
      db.exec('PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
      db.exec(`BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = 1; COMMIT;`);
      return { db, ino: inode(file) ?? -1, appends: 0 };
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw journalUnavailable(file, firstLine(err));
    }
  })();
  handles.set(file, opening);
  opening.catch(() => handles.delete(file));
  return opening;
}

function inode(file: string): number | undefined {
  try {
    return statSync(file).ino;
  } catch {
    return undefined;
  }
}

function tighten(file: string): void {
  if (process.platform === 'win32') return;
  const mode = statSync(file).mode;
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(file, 0o600);
  } catch (err) {
    throw new ToolError(
      'journal_not_private',
      `The change journal ${file} is readable by others (mode ${(mode & 0o777).toString(8)}) and could not be made private: ${firstLine(err)}. It names users and emails.`,
      {
        hint: 'chmod 600 it, or choose another with --journal / CMS_JOURNAL.',
      },
    );
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** Runs `work` in one write transaction (BEGIN IMMEDIATE: the busy timeout waits for other writers). */
function transaction<T>(db: SqliteDatabase, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = work();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // the transaction is already gone
    }
    throw err;
  }
}

function row(entry: ChangeEntry, site: string): SqliteValue[] {
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
    JSON.stringify({ ...entry, site }),
  ];
}

const parse = (r: Record<string, SqliteValue>): ChangeEntry => JSON.parse(String(r.doc)) as ChangeEntry;

/** Settings for the automatic retention (docs/undo.md). */
function retention(): { maxBytes: number; keepMs: number } {
  const mb = Number(process.env.CMS_JOURNAL_MAX_MB ?? 100);
  const days = Number(process.env.CMS_JOURNAL_KEEP_DAYS ?? 90);
  return { maxBytes: Number.isFinite(mb) ? mb * 1e6 : 100e6, keepMs: (Number.isFinite(days) ? days : 90) * 86_400_000 };
}

/** Bytes the store takes (pages in use, not the free ones). */
function usedBytes(db: SqliteDatabase): number {
  const size = Number(db.prepare('PRAGMA page_size').get()?.page_size ?? 4096);
  const pages = Number(db.prepare('PRAGMA page_count').get()?.page_count ?? 0);
  const free = Number(db.prepare('PRAGMA freelist_count').get()?.freelist_count ?? 0);
  return (pages - free) * size;
}

/** Past CMS_JOURNAL_MAX_MB, entries older than CMS_JOURNAL_KEEP_DAYS go: inside a transaction, never a rename. */
function autoRetain(db: SqliteDatabase): void {
  const { maxBytes, keepMs } = retention();
  if (maxBytes <= 0 || usedBytes(db) <= maxBytes) return;
  const cutoff = new Date(Date.now() - keepMs).toISOString();
  transaction(db, () => db.prepare('DELETE FROM changes WHERE at < ?').run(cutoff));
  db.exec('PRAGMA incremental_vacuum');
}

export interface PruneRule {
  olderThanMs?: number;
  maxBytes?: number;
}

/**
 * The change store at `file` (a SQLite database; a JSON Lines journal of before #47 is imported
 * into `<file>.db` beside it and kept as it is). Its `journal()` reads every site (the operator's
 * view: `cms-admin changes`); `forSite()` is what a context uses.
 */
export function changeStore(file: string) {
  const { db: dbFile, legacy } = storeFileFor(file);
  const handle = async (site?: string): Promise<Handle> => {
    const h = await open(dbFile);
    if (legacy && site) importOnce(h.db, legacy, site);
    return h;
  };
  return {
    file: dbFile,
    /** A view for one site (site-key.ts), or of every site when none is given. */
    journal(site?: string, legacyFile?: string): ChangeJournal {
      const ready = async () => {
        const h = await handle(site);
        if (site && legacyFile) importOnce(h.db, legacyFile, site);
        return h;
      };
      const where = site ? 'site = ? AND ' : '';
      const siteArgs: SqliteValue[] = site ? [site] : [];
      const view: ChangeJournal = {
        path: dbFile,
        ...(site ? { site } : {}),
        forSite: (other) => changeStore(file).journal(other, legacyJournalFor(dbFile, other)),
        async append(entry) {
          const h = await ready().catch(unavailable(dbFile));
          const { db } = h;
          const at = entry.site ?? site;
          if (!at) throw new Error('a change entry without its site (the journal view has none)');
          if (site && at !== site) throw new Error(`a change on ${at} written to the journal view of ${site}`);
          try {
            transaction(db, () =>
              db
                .prepare(
                  'INSERT INTO changes (id, site, user_id, login, run, tool, status, undoes, at, doc) VALUES (?,?,?,?,?,?,?,?,?,?)',
                )
                .run(...row(entry, at)),
            );
          } catch (err) {
            throw journalUnavailable(dbFile, firstLine(err));
          }
          // Retention is checked now and then, not on every append (three cheap PRAGMAs).
          if (h.appends++ % 64 === 0) {
            try {
              autoRetain(db);
            } catch (err) {
              process.stderr.write(`cms-admin: the change journal ${dbFile} could not be pruned: ${firstLine(err)}\n`);
            }
          }
        },
        async update(entry) {
          const { db } = await ready().catch(unavailable(dbFile));
          const at = entry.site ?? site;
          if (!at) throw new Error('a change entry without its site');
          try {
            // The same columns as an insert (row()), found by id and site.
            const [id, key, ...columns] = row(entry, at);
            const out = transaction(db, () =>
              db
                .prepare('UPDATE changes SET user_id = ?, login = ?, run = ?, tool = ?, status = ?, undoes = ?, at = ?, doc = ? WHERE id = ? AND site = ?')
                .run(...columns, id as SqliteValue, key as SqliteValue),
            );
            if (Number(out.changes) !== 1) throw new Error(`change ${entry.change_id} is not in the journal`);
          } catch (err) {
            throw journalUnavailable(dbFile, firstLine(err));
          }
        },
        async discard(changeId: string) {
          const { db } = await ready().catch(unavailable(dbFile));
          transaction(db, () =>
            db.prepare(`DELETE FROM changes WHERE ${where}id = ? AND status = 'pending'`).run(...siteArgs, changeId),
          );
        },
        async entries() {
          const { db } = await ready();
          return db
            .prepare(`SELECT doc FROM changes ${site ? 'WHERE site = ?' : ''} ORDER BY seq`)
            .all(...siteArgs)
            .map(parse);
        },
        async *latest() {
          const { db } = await ready();
          const page = db.prepare(`SELECT seq, doc FROM changes WHERE ${where}seq < ? ORDER BY seq DESC LIMIT ${PAGE}`);
          let before: SqliteValue = Number.MAX_SAFE_INTEGER;
          for (;;) {
            const rows = page.all(...siteArgs, before);
            for (const r of rows) yield parse(r);
            if (rows.length < PAGE) return;
            before = (rows.at(-1) as Record<string, SqliteValue>).seq as SqliteValue;
          }
        },
        async byRun(runId) {
          const { db } = await ready();
          return db
            .prepare(`SELECT doc FROM changes WHERE run = ? ${site ? 'AND site = ?' : ''} ORDER BY seq`)
            .all(runId, ...siteArgs)
            .map(parse);
        },
      };
      return view;
    },
    /** The sites that have entries of a run (a site killed mid-run included). */
    async runSites(runId: string): Promise<string[]> {
      const { db } = await handle();
      return db
        .prepare('SELECT DISTINCT site FROM changes WHERE run = ?')
        .all(runId)
        .map((r) => String(r.site));
    },
    async count(site?: string): Promise<number> {
      const { db } = await handle();
      return Number(
        db.prepare(`SELECT count(*) AS n FROM changes ${site ? 'WHERE site = ?' : ''}`).get(...(site ? [site] : []))
          ?.n ?? 0,
      );
    },
    /** Closes this process's connection to the store (it opens again on the next use). */
    async close(): Promise<void> {
      const known = handles.get(dbFile);
      handles.delete(dbFile);
      const h = await known?.catch(() => undefined);
      h?.db.close();
    },
    /** Deletes entries older than the age, then the oldest until the store is at most the size. */
    async prune(rule: PruneRule): Promise<{ removed: number; kept: number }> {
      const { db } = await handle();
      let removed = 0;
      if (rule.olderThanMs !== undefined) {
        const cutoff = new Date(Date.now() - rule.olderThanMs).toISOString();
        removed += Number(transaction(db, () => db.prepare('DELETE FROM changes WHERE at < ?').run(cutoff)).changes);
      }
      if (rule.maxBytes !== undefined) {
        for (let used = usedBytes(db); used > rule.maxBytes; used = usedBytes(db)) {
          // The share of rows over the size (at least one), oldest first.
          const rows = Number(db.prepare('SELECT count(*) AS n FROM changes').get()?.n ?? 0);
          const step = Math.max(1, Math.ceil((rows * (used - rule.maxBytes)) / used));
          const gone = Number(
            transaction(db, () =>
              db.prepare('DELETE FROM changes WHERE seq IN (SELECT seq FROM changes ORDER BY seq LIMIT ?)').run(step),
            ).changes,
          );
          if (!gone) break;
          removed += gone;
          db.exec('PRAGMA incremental_vacuum');
        }
      }
      db.exec('PRAGMA incremental_vacuum');
      return { removed, kept: Number(db.prepare('SELECT count(*) AS n FROM changes').get()?.n ?? 0) };
    },
  };
}

export type ChangeStore = ReturnType<typeof changeStore>;

function unavailable(file: string) {
  return (err: unknown): never => {
    if (err instanceof ToolError) throw err;
    throw journalUnavailable(file, firstLine(err));
  };
}

/** Imports a JSON Lines journal of before #47 into the store for `site`, once per size it had. */
function importOnce(db: SqliteDatabase, file: string, site: string): void {
  if (!existsSync(file)) return;
  const bytes = statSync(file).size;
  const seen = db.prepare('SELECT bytes FROM imports WHERE file = ?').get(file);
  if (seen && Number(seen.bytes) === bytes) return;
  const entries = importJsonl(file);
  transaction(db, () => {
    const insert = db.prepare(
      'INSERT OR IGNORE INTO changes (id, site, user_id, login, run, tool, status, undoes, at, doc) VALUES (?,?,?,?,?,?,?,?,?,?)',
    );
    for (const entry of entries) insert.run(...row(entry, site));
    db.prepare('INSERT OR REPLACE INTO imports (file, site, bytes, at) VALUES (?,?,?,?)').run(
      file,
      site,
      bytes,
      new Date().toISOString(),
    );
  });
}

/** Whether a process that wrote a pending entry is still running it (same host, alive). */
export function stillRunning(entry: ChangeEntry): boolean {
  if (entry.status !== 'pending' || !entry.pid) return false;
  if (entry.host && entry.host !== hostname()) return true;
  try {
    process.kill(entry.pid, 0);
    return entry.pid !== process.pid || pendingHere.has(entry.change_id);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Intents this process has open (a pending entry of ours not in here was left by a call that died). */
export const pendingHere = new Set<string>();
