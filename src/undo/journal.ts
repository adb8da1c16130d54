import type { ChangeEntry, ChangeJournal } from '../tools/journal-port.js';
import { type ChangeStore, changeStore } from './change-store.js';
import { isPostgresUrl, type PgChangeStore, pgChangeStore } from './change-store-pg.js';
import { siteKey } from './site-key.js';

export type { ChangeEntry, ChangeJournal } from '../tools/journal-port.js';

let last = 0;

/** A new change id: later ids sort after earlier ones (also within one millisecond). */
export function newChangeId(): string {
  last = Math.max(Date.now(), last + 1);
  return `c${last.toString(36)}${Buffer.from(crypto.getRandomValues(new Uint8Array(2))).toString('hex')}`;
}

/** @deprecated since the change store (#47): its errors are ToolErrors (`journal_unavailable`, `journal_not_private`). */
export class JournalError extends Error {
  override readonly name = 'JournalError';
  readonly code = 'journal_not_private';
}


/**
 * The change store at `path` (a SQLite database, 0600; src/undo/change-store.ts), as a journal
 * of every site in it. A context binds it to its own site (`journalForSite`): what a context
 * writes names its site, and what it reads is only its site's. A JSON Lines journal of before
 * issue #47 at `path` is imported into `<path>.db` beside it, once, and kept as a backup.
 * A `postgres://…` URL is the change store in PostgreSQL (change-store-pg.ts), shared by
 * every process that names it (`mcp --http --store postgres://…` replicas).
 */
export function fileJournal(path: string): ChangeJournal {
  return isPostgresUrl(path) ? pgChangeStore(path).journal() : changeStore(path).journal();
}

/** The change store a journal location names: a SQLite file, or PostgreSQL at a `postgres://` URL. */
export function storeAt(path: string): ChangeStore | PgChangeStore {
  return isPostgresUrl(path) ? pgChangeStore(path) : changeStore(path);
}

/** The journal as one site's context uses it: a store's view of that site (others as they are). */
export function journalForSite(journal: ChangeJournal, siteUrl: string): ChangeJournal {
  const site = siteKey(siteUrl);
  if (journal.site === site) return journal;
  return journal.forSite ? journal.forSite(site) : journal;
}

/** A journal kept in memory (tests, or an app that stores entries itself through `entries`). */
export function memoryJournal(): ChangeJournal {
  const list: ChangeEntry[] = [];
  return {
    async append(entry) {
      list.push(structuredClone(entry));
    },
    async update(entry) {
      const i = list.findIndex((e) => e.change_id === entry.change_id);
      if (i < 0) throw new Error(`change ${entry.change_id} is not in the journal`);
      list[i] = structuredClone(entry);
    },
    async discard(changeId) {
      const i = list.findIndex((e) => e.change_id === changeId && e.status === 'pending');
      if (i >= 0) list.splice(i, 1);
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

