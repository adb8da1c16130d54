import { readFile } from 'node:fs/promises';
import { privateLineAppender } from '../audit.js';
import type { ChangeEntry, ChangeJournal } from '../tools/journal-port.js';
import { isDamaged, itemsBackward, parseLine } from './journal-file.js';
import { rotateIfLarge } from './journal-prune.js';

export type { ChangeEntry, ChangeJournal } from '../tools/journal-port.js';

const isEntry = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as ChangeEntry).change_id === 'string';

let last = 0;

/** A new change id: later ids sort after earlier ones (also within one millisecond). */
export function newChangeId(): string {
  last = Math.max(Date.now(), last + 1);
  return `c${last.toString(36)}${Buffer.from(crypto.getRandomValues(new Uint8Array(2))).toString('hex')}`;
}

/** The journal error when the file cannot be made private (0600). */
export class JournalError extends Error {
  override readonly name = 'JournalError';
  readonly code = 'journal_not_private';
}

/**
 * A journal in a JSON-lines file, mode 0600 like the audit log (it names users and emails);
 * appends are chained, so lines never interleave, and never join a damaged line (audit.ts).
 * `latest()` reads from the end; a damaged line is yielded as such, for the reader to name.
 * A file past the size limit has its old entries moved to `<file>.1` (journal-prune.ts).
 */
export function fileJournal(path: string): ChangeJournal {
  const append = privateLineAppender(path, {
    what: 'The change journal',
    why: 'It names users and emails',
    option: '--journal / CMS_JOURNAL',
    error: (message) => new JournalError(message),
  });
  return {
    path,
    async append(entry) {
      await append(`${JSON.stringify(entry)}\n`);
      await rotateIfLarge(path).catch((err: unknown) => {
        process.stderr.write(`cms-admin: the change journal ${path} could not be rotated: ${(err as Error).message}\n`);
      });
    },
    latest: () => itemsBackward<ChangeEntry>(path, isEntry),
    async entries() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const entries: ChangeEntry[] = [];
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        // A damaged line is left out here (latest() names it); one glued onto it is recovered.
        const items = parseLine<ChangeEntry>(Buffer.from(line), 0, i === lines.length - 1, isEntry).reverse();
        for (const item of items) if (!isDamaged(item)) entries.push(item);
      });
      return entries;
    },
  };
}

/** A journal kept in memory (tests, or an app that stores entries itself through `entries`). */
export function memoryJournal(): ChangeJournal {
  const list: ChangeEntry[] = [];
  return {
    async append(entry) {
      list.push(structuredClone(entry));
    },
    async entries() {
      return structuredClone(list);
    },
  };
}

/** The latest entry that undid `entry` and is itself still in force (not undone by a redo), if any. */
export function undoneBy(entries: readonly ChangeEntry[], changeId: string): ChangeEntry | undefined {
  const undos = entries.filter((e) => e.undoes === changeId);
  return undos.reverse().find((u) => !undoneBy(entries, u.change_id));
}

/** Undone by an undo that finished (one cut short by a fault counts as not undone: run it again). */
export function isUndone(entries: readonly ChangeEntry[], entry: ChangeEntry): boolean {
  const undo = undoneBy(entries, entry.change_id);
  return Boolean(undo && !undo.incomplete);
}

/** The account a journal is read for: the connected user (src/client/current-user.ts). */
export interface JournalAccount {
  id: number;
  username: string;
  /** When the account was registered (ISO); entries older than it cannot be its own. */
  registered?: string;
}

/**
 * Whether `entry` was made by `account`. One journal may hold several people's changes (MCP
 * over HTTP with sign-in shares the site's journal): each sees and undoes only their own, so
 * "undo that" never takes back someone else's change, and a weaker account cannot read a
 * stronger one's changes (emails, roles) from the journal. A change belongs to the account's
 * id; an entry from before ids were recorded matches by login only when the account already
 * existed then (a new account given a deleted person's login was registered after their changes).
 */
export function madeBy(entry: ChangeEntry, account: JournalAccount): boolean {
  if (entry.user_id !== undefined) return entry.user_id === account.id;
  if (entry.user !== account.username) return false;
  const registered = account.registered ? Date.parse(account.registered) : Number.NaN;
  return Number.isFinite(registered) && registered <= Date.parse(entry.at);
}

/** The entry with its account's id next to the login (when `account` is the login's). */
export function withUserId(entry: ChangeEntry, account: { id: number; username: string } | undefined): ChangeEntry {
  if (!account || entry.user_id !== undefined || entry.user !== account.username) return entry;
  const { change_id, at, user, ...rest } = entry;
  return { change_id, at, user, user_id: account.id, ...rest };
}

/** The entries `account` made (undos included), in their order: see `madeBy`. */
export function entriesOf(entries: readonly ChangeEntry[], account: JournalAccount): ChangeEntry[] {
  return entries.filter((e) => madeBy(e, account));
}

