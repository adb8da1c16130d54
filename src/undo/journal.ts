import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { privateLineAppender } from '../audit.js';

/**
 * The change journal (issue #24): one entry per write a tool made, with the state it replaced,
 * enough to reverse it (src/undo/undo.ts). Never a password, reset key or application password:
 * params are masked and redacted like the audit log's (src/undo/record.ts).
 */
export interface ChangeEntry {
  /** Short and unique, sortable by time: 'c' + base36 milliseconds + random. */
  change_id: string;
  /** ISO time. */
  at: string;
  /** The site account the toolkit wrote as. */
  user?: string;
  tool: string;
  /** The call's params, secrets masked. */
  params: unknown;
  /** One line: what changed. */
  summary: string;
  reversible: boolean;
  /** Why it cannot be undone (a password set, an account deleted). */
  why_not?: string;
  /** The state the write replaced (an UndoState, src/undo/state.ts), keyed by ids. */
  before: unknown;
  /** The state right after the write; an undo entry's also holds `id_map` (recreated terms). */
  after: unknown;
  /** Set when this entry is itself an undo of change X (undoing it is a redo). */
  undoes?: string;
  /** An undo some of whose writes failed (a fault): undoing X again finishes it. */
  incomplete?: boolean;
}

export interface ChangeJournal {
  append(entry: ChangeEntry): Promise<void>;
  /** Every entry, oldest first. */
  entries(): Promise<ChangeEntry[]>;
}

let last = 0;

/** A new change id: later ids sort after earlier ones (also within one millisecond). */
export function newChangeId(): string {
  last = Math.max(Date.now(), last + 1);
  return `c${last.toString(36)}${randomBytes(2).toString('hex')}`;
}

/** The journal error when the file cannot be made private (0600). */
export class JournalError extends Error {
  override readonly name = 'JournalError';
  readonly code = 'journal_not_private';
}

/**
 * A journal in a JSON-lines file, mode 0600 like the audit log (it names users and emails);
 * appends are chained, so lines never interleave. Lines that are not JSON are skipped on read.
 */
export function fileJournal(path: string): ChangeJournal {
  const append = privateLineAppender(path, {
    what: 'The change journal',
    why: 'It names users and emails',
    option: '--journal / CMS_JOURNAL',
    error: (message) => new JournalError(message),
  });
  return {
    append: (entry) => append(`${JSON.stringify(entry)}\n`),
    async entries() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const entries: ChangeEntry[] = [];
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        try {
          entries.push(JSON.parse(line) as ChangeEntry);
        } catch {
          // A line cut short by a crash: the others still count.
        }
      }
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

/**
 * The entries `user` made (undos included). One journal may hold several people's changes (MCP
 * over HTTP with sign-in shares the site's journal): each sees and undoes only their own, so
 * "undo that" never takes back someone else's change, and a weaker account cannot read a
 * stronger one's changes (emails, roles) from the journal.
 */
export function entriesOf(entries: readonly ChangeEntry[], user: string): ChangeEntry[] {
  return entries.filter((e) => e.user === user);
}
