import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChangeEntry, ChangeJournal } from '../tools/journal-port.js';
import { ToolError } from '../tools/tool-error.js';
import { DAMAGED_HINT, damagedHeader, sameFiles, type StoreFiles, storeFileFor, storeFiles } from './change-store-files.js';
import { importJsonl, legacyJournalFor, legacyJournalsOf, notYetImported } from './change-store-legacy.js';
import { entryGone, firstLine, forReading, journalUnavailable, type PruneRule, retention } from './change-store-shared.js';
import { loadSqlite, type SqliteDatabase, type SqliteValue } from './sqlite.js';

export { journalUnavailable, pendingHere, type PruneRule, stillRunning, storeFailure } from './change-store-shared.js';
export { storeFileFor } from './change-store-files.js';

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
 *
 * Its files are checked before every use (issue #59): a database or `-wal`/`-shm` deleted or
 * replaced while this process held them is noticed (change-store-files.ts) and opened anew, and
 * each commit is checkpointed into the database file, so what this process answered ok for is
 * in the file every other process reads, also when its `-wal` is deleted afterwards.
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

interface Handle {
  db: SqliteDatabase;
  /** The files this connection opened: another at the path means they were deleted or replaced. */
  files: StoreFiles;
  appends: number;
}

const handles = new Map<string, Promise<Handle>>();

/** This process's connection to the store at `file`, opened anew when its files are no longer the ones at the path. */
async function open(file: string): Promise<Handle> {
  const known = handles.get(file);
  if (known) {
    const handle = await known.catch(() => undefined);
    if (handle && sameFiles(file, handle.files)) {
      const damaged = damagedHeader(file);
      if (damaged) throw journalUnavailable(file, damaged, DAMAGED_HINT);
      return handle;
    }
    // Deleted or replaced (a person, a clean-up script): what this connection writes no other
    // process would read. Every commit of it is in the database file already (write()), so
    // closing it loses nothing; it is closed first, as SQLite shares a file's -shm in a process.
    drop(file, known, handle);
  }
  const opening = (async () => {
    const { DatabaseSync } = await loadSqlite();
    const damaged = damagedHeader(file);
    if (damaged) throw journalUnavailable(file, damaged, DAMAGED_HINT);
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // Created empty and private first: SQLite makes its -wal and -shm files with the same mode.
      closeSync(openSync(file, 'a', 0o600));
      tighten(file);
      const db = new DatabaseSync(file, { timeout: 15_000 });
      // auto_vacuum first: it takes effect only before the database's first table.
      db.exec('PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
      db.exec(`BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = 1; COMMIT;`);
      return { db, files: storeFiles(file), appends: 0 };
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw journalUnavailable(file, firstLine(err));
    }
  })();
  handles.set(file, opening);
  opening.catch(() => handles.delete(file));
  return opening;
}

function drop(file: string, known: Promise<Handle> | undefined, handle: Handle | undefined): void {
  if (handles.get(file) === known) handles.delete(file);
  try {
    handle?.db.close();
  } catch {
    // already closed
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

const REPLACED = 'its files were deleted or replaced while this process had them open';

/**
 * Runs `work` in one write transaction on the store as it is at its path (BEGIN IMMEDIATE: the
 * busy timeout waits for other writers). Files replaced while the lock was awaited: rolled back
 * and run again on a new connection; replaced under the commit itself: an error, as the entry
 * may be where no other process reads. Every commit is then checkpointed into the database file
 * (PASSIVE: it never waits; a reader holding an older snapshot leaves the rest to the next one),
 * so an ok means the entry is in the file every process reads, whatever happens to the -wal
 * afterwards, and a connection whose -wal was deleted holds nothing that closing it would
 * copy over another process's pages (issue #59.5). It costs two fsyncs a commit.
 */
async function write<T>(file: string, work: (db: SqliteDatabase) => T): Promise<{ out: T; handle: Handle }> {
  for (let attempt = 0; ; attempt++) {
    const handle = await open(file);
    const { db } = handle;
    db.exec('BEGIN IMMEDIATE');
    let out: T;
    try {
      out = work(db);
      if (!sameFiles(file, handle.files)) throw new Error(REPLACED);
      db.exec('COMMIT');
    } catch (err) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // the transaction is already gone
      }
      // The next open() sees the files replaced and opens them anew.
      if (attempt === 0 && (err as Error).message === REPLACED) continue;
      throw err;
    }
    if (!sameFiles(file, handle.files)) {
      drop(file, handles.get(file), handle);
      throw new Error(`${REPLACED}: this entry may not be in it`);
    }
    try {
      db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // the next commit checkpoints it
    }
    return { out, handle };
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

/** Bytes the store takes (pages in use, not the free ones). */
function usedBytes(db: SqliteDatabase): number {
  const size = Number(db.prepare('PRAGMA page_size').get()?.page_size ?? 4096);
  const pages = Number(db.prepare('PRAGMA page_count').get()?.page_count ?? 0);
  const free = Number(db.prepare('PRAGMA freelist_count').get()?.freelist_count ?? 0);
  return (pages - free) * size;
}

/** Past CMS_JOURNAL_MAX_MB, entries older than CMS_JOURNAL_KEEP_DAYS go: inside a transaction, never a rename. */
async function autoRetain(file: string, db: SqliteDatabase): Promise<void> {
  const { maxBytes, keepMs } = retention();
  if (maxBytes <= 0 || usedBytes(db) <= maxBytes) return;
  const cutoff = new Date(Date.now() - keepMs).toISOString();
  const { handle } = await write(file, (d) => d.prepare('DELETE FROM changes WHERE at < ?').run(cutoff));
  handle.db.exec('PRAGMA incremental_vacuum');
}

const INSERT = 'INTO changes (id, site, user_id, login, run, tool, status, undoes, at, doc) VALUES (?,?,?,?,?,?,?,?,?,?)';

/**
 * The change store at `file` (a SQLite database; a JSON Lines journal of before #47 is imported
 * into `<file>.db` beside it and kept as it is; a file that is neither is refused, naming it).
 * Its `journal()` reads every site (the operator's view: `cms-admin changes`, old journals not
 * imported yet included); `forSite()` is what a context uses.
 */
export function changeStore(file: string) {
  const { db: dbFile, legacy, damaged } = storeFileFor(file);
  const handle = async (site?: string): Promise<Handle> => {
    if (damaged) throw journalUnavailable(dbFile, damaged, DAMAGED_HINT);
    const h = await open(dbFile);
    if (legacy && site) await importOnce(dbFile, h.db, legacy, site);
    return h;
  };
  /** Old journals a view of every site shows before they are imported (#59.11). */
  const olderOf = (db: SqliteDatabase) => notYetImported(db, legacyJournalsOf(dbFile, legacy));
  return {
    file: dbFile,
    /** A view for one site (site-key.ts), or of every site when none is given. */
    journal(site?: string, legacyFile?: string): ChangeJournal {
      const ready = async () => {
        const h = await handle(site);
        if (site && legacyFile) await importOnce(dbFile, h.db, legacyFile, site);
        return h;
      };
      const readable = () => ready().catch((err: unknown) => Promise.reject(forReading(err)));
      const where = site ? 'site = ? AND ' : '';
      const siteArgs: SqliteValue[] = site ? [site] : [];
      const view: ChangeJournal = {
        path: dbFile,
        ...(site ? { site } : {}),
        forSite: (other) => changeStore(file).journal(other, legacyJournalFor(dbFile, other)),
        async append(entry) {
          await ready().catch(unavailable(dbFile));
          const at = entry.site ?? site;
          if (!at) throw new Error('a change entry without its site (the journal view has none)');
          if (site && at !== site) throw new Error(`a change on ${at} written to the journal view of ${site}`);
          let h: Handle;
          try {
            ({ handle: h } = await write(dbFile, (db) => db.prepare(`INSERT ${INSERT}`).run(...row(entry, at))));
          } catch (err) {
            throw err instanceof ToolError ? err : journalUnavailable(dbFile, firstLine(err));
          }
          // Retention is checked now and then, not on every append (three cheap PRAGMAs).
          if (h.appends++ % 64 === 0) {
            await autoRetain(dbFile, h.db).catch((err: unknown) =>
              process.stderr.write(`cms-admin: the change journal ${dbFile} could not be pruned: ${firstLine(err)}\n`),
            );
          }
        },
        async update(entry) {
          await ready().catch(unavailable(dbFile));
          const at = entry.site ?? site;
          if (!at) throw new Error('a change entry without its site');
          try {
            // The same columns as an insert (row()), found by id and site.
            const [id, key, ...columns] = row(entry, at);
            const { out } = await write(dbFile, (db) =>
              db
                .prepare('UPDATE changes SET user_id = ?, login = ?, run = ?, tool = ?, status = ?, undoes = ?, at = ?, doc = ? WHERE id = ? AND site = ?')
                .run(...columns, id as SqliteValue, key as SqliteValue),
            );
            if (Number(out.changes) !== 1) throw entryGone(dbFile, entry.change_id);
          } catch (err) {
            throw err instanceof ToolError ? err : journalUnavailable(dbFile, firstLine(err));
          }
        },
        async discard(changeId: string) {
          await ready().catch(unavailable(dbFile));
          await write(dbFile, (db) =>
            db.prepare(`DELETE FROM changes WHERE ${where}id = ? AND status = 'pending'`).run(...siteArgs, changeId),
          );
        },
        async entries() {
          const { db } = await readable();
          const rows = db
            .prepare(`SELECT doc FROM changes ${site ? 'WHERE site = ?' : ''} ORDER BY seq`)
            .all(...siteArgs)
            .map(parse);
          return site ? rows : [...olderOf(db), ...rows];
        },
        async *latest() {
          const { db } = await readable();
          const older = site ? [] : olderOf(db);
          const page = db.prepare(`SELECT seq, doc FROM changes WHERE ${where}seq < ? ORDER BY seq DESC LIMIT ${PAGE}`);
          let before: SqliteValue = Number.MAX_SAFE_INTEGER;
          for (;;) {
            const rows = page.all(...siteArgs, before);
            for (const r of rows) yield parse(r);
            if (rows.length < PAGE) break;
            before = (rows.at(-1) as Record<string, SqliteValue>).seq as SqliteValue;
          }
          yield* older.reverse();
        },
        async byRun(runId) {
          const { db } = await readable();
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
      const { db } = await handle().catch((err: unknown) => Promise.reject(forReading(err)));
      return db
        .prepare('SELECT DISTINCT site FROM changes WHERE run = ?')
        .all(runId)
        .map((r) => String(r.site));
    },
    async count(site?: string): Promise<number> {
      const { db } = await handle().catch((err: unknown) => Promise.reject(forReading(err)));
      const stored = Number(db.prepare(`SELECT count(*) AS n FROM changes ${site ? 'WHERE site = ?' : ''}`).get(...(site ? [site] : []))?.n ?? 0);
      return site ? stored : stored + olderOf(db).length;
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
      let { db } = await handle();
      let removed = 0;
      if (rule.olderThanMs !== undefined) {
        const cutoff = new Date(Date.now() - rule.olderThanMs).toISOString();
        const done = await write(dbFile, (d) => d.prepare('DELETE FROM changes WHERE at < ?').run(cutoff));
        removed += Number(done.out.changes);
        db = done.handle.db;
      }
      if (rule.maxBytes !== undefined) {
        for (let used = usedBytes(db); used > rule.maxBytes; used = usedBytes(db)) {
          // The share of rows over the size (at least one), oldest first.
          const rows = Number(db.prepare('SELECT count(*) AS n FROM changes').get()?.n ?? 0);
          const step = Math.max(1, Math.ceil((rows * (used - rule.maxBytes)) / used));
          const done = await write(dbFile, (d) => d.prepare('DELETE FROM changes WHERE seq IN (SELECT seq FROM changes ORDER BY seq LIMIT ?)').run(step));
          db = done.handle.db;
          const gone = Number(done.out.changes);
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
async function importOnce(dbFile: string, db: SqliteDatabase, file: string, site: string): Promise<void> {
  if (!existsSync(file)) return;
  const bytes = statSync(file).size;
  const seen = db.prepare('SELECT bytes FROM imports WHERE file = ?').get(file);
  if (seen && Number(seen.bytes) === bytes) return;
  const entries = importJsonl(file);
  await write(dbFile, (d) => {
    const insert = d.prepare(`INSERT OR IGNORE ${INSERT}`);
    for (const entry of entries) insert.run(...row(entry, site));
    d.prepare('INSERT OR REPLACE INTO imports (file, site, bytes, at) VALUES (?,?,?,?)').run(file, site, bytes, new Date().toISOString());
  });
}
