import { closeSync, openSync, readSync, statSync } from 'node:fs';

/**
 * The change store's files as they are on disk (issue #59, "the store detects every way it can
 * be lost"): which kind of file a journal path names, and whether the files a process's open
 * connection uses are still the ones at the path (a person or a clean-up script may delete or
 * replace the database or its `-wal`/`-shm` while a process holds the store open; SQLite keeps
 * writing into the unlinked files, where no other process reads).
 */

const SQLITE_MAGIC = 'SQLite format 3\0';
/** How much of a file is looked at to tell a JSON Lines journal from anything else. */
const SNIFF = 64 * 1024;

/** What a journal path holds. */
export type StoreFile =
  | { db: string; legacy?: string; damaged?: undefined }
  | { db: string; legacy?: undefined; damaged: string };

function head(file: string, bytes: number): Buffer | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(bytes);
      return buf.subarray(0, readSync(fd, buf, 0, bytes, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * Text with at least one line that is a change entry — or that starts as one, for a first line
 * longer than what is read (a bulk write's entry) — a JSON Lines journal of before #47 (damaged
 * lines allowed).
 */
function isJsonLines(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  const text = bytes.toString('utf8');
  if (/^\s*\{"change_id":"/.test(text)) return true;
  return text
    .split('\n')
    .some((line) => {
      try {
        const value = JSON.parse(line) as { change_id?: unknown } | null;
        return typeof value === 'object' && value !== null && typeof value.change_id === 'string';
      } catch {
        return false;
      }
    });
}

/** Why a file that should be a change store cannot be read as one (its first bytes), or undefined. */
export function damagedHeader(file: string): string | undefined {
  const bytes = head(file, 16);
  if (!bytes || bytes.length === 0 || bytes.toString('latin1') === SQLITE_MAGIC) return undefined;
  return 'it is not a SQLite database: its first bytes are damaged or it is another file';
}

/**
 * The database a journal path names: the path itself (absent, empty or SQLite); `<path>.db`
 * beside a JSON Lines journal of before #47; or, for a file that is neither, why it is refused —
 * never taken for an old journal, which would start a new store beside it and hide every entry.
 */
export function storeFileFor(file: string): StoreFile {
  const bytes = head(file, SNIFF);
  if (!bytes || bytes.length === 0 || bytes.subarray(0, 16).toString('latin1') === SQLITE_MAGIC) return { db: file };
  if (isJsonLines(bytes)) return { db: `${file}.db`, legacy: file };
  return {
    db: file,
    damaged: 'it is neither a SQLite database nor a JSON Lines journal: its first bytes are damaged or it is another file',
  };
}

/** The inodes of a store's three files (undefined: not there). */
export interface StoreFiles {
  main?: number;
  wal?: number;
  shm?: number;
}

const inode = (file: string): number | undefined => {
  try {
    return statSync(file).ino;
  } catch {
    return undefined;
  }
};

export function storeFiles(file: string): StoreFiles {
  return { main: inode(file), wal: inode(`${file}-wal`), shm: inode(`${file}-shm`) };
}

/** Whether the files at the path are still the ones a connection opened (none deleted or replaced). */
export function sameFiles(file: string, opened: StoreFiles): boolean {
  const now = storeFiles(file);
  return now.main === opened.main && now.wal === opened.wal && now.shm === opened.shm;
}

/** The journal-unavailable hint for a damaged store: what to do with the file. */
export const DAMAGED_HINT =
  'Move the file aside and keep it (`sqlite3 FILE .recover` may get its entries back); the next write then starts a new store. Or choose another journal with --journal FILE / CMS_JOURNAL=FILE; --journal off (CMS_JOURNAL=off) writes without undo.';
