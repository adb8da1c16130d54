/**
 * The change journal as a tool's context sees it (ToolContext.journal): the entries' shape and
 * the store's interface. The undo engine (src/undo/) implements and reads it; it sits above
 * the tools, so the declarations live here.
 */

/** A line of the file that is not a change entry: cut short by a full disk or a killed writer. */
export interface DamagedLine {
  damaged: true;
  /** Byte offset of the line in the file (its line number is counted only when it is named). */
  offset: number;
  /** 'cut short' (no end of line, or another entry joined to it), or 'not a change entry'. */
  why: string;
}

export type JournalLine<T> = T | DamagedLine;

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
  /** The site account the toolkit wrote as (its login). */
  user?: string;
  /**
   * That account's user id: a change belongs to its account, not to its login (a new account
   * given a deleted person's login sees none of their changes). Absent in entries written
   * before issue #33.
   */
  user_id?: number;
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
  /** The fleet run (`invoke --sites`) this change was part of: `cms-admin undo --run ID` takes it back. */
  run_id?: string;
  /** An undo some of whose writes failed (a fault): undoing X again finishes it. */
  incomplete?: boolean;
  /**
   * The site the change was made on (src/undo/site-key.ts: scheme, host, port, path). Every
   * entry written since issue #47 has it; a journal view and the undo engine read only their
   * own site's entries.
   */
  site?: string;
  /**
   * Where the write stands (issue #47). `pending`: the intent, committed before the first
   * request that changes the site; a process killed before completing it leaves it so, and it
   * may have been applied. `done` (or absent, in older entries): completed with the state after.
   * `unknown`: the answer was lost and the site could not be read back. Undo reconciles
   * `pending` and `unknown` entries by reading the site (`scope`).
   */
  status?: 'pending' | 'done' | 'unknown';
  /** The process that wrote a pending entry (a pending entry of a live process is still running). */
  pid?: number;
  host?: string;
  /** What the write may touch (an UndoScope): undo of a pending entry reads it back from the site. */
  scope?: unknown;
}

export interface ChangeJournal {
  append(entry: ChangeEntry): Promise<void>;
  /** Every entry, oldest first. */
  entries(): Promise<ChangeEntry[]>;
  /**
   * The entries newest first, read from the end (a file journal reads back only as far as the
   * caller iterates), with the damaged lines met on the way. Optional for stores of your own:
   * `latestOf` falls back to `entries()`.
   */
  latest?(): AsyncIterable<JournalLine<ChangeEntry>>;
  /** The file, for a file journal (its messages name it; undos of one file are serialised). */
  readonly path?: string;
  /**
   * Replaces the entry with the same change_id (an intent completed). A journal that has it is
   * written BEFORE each write (the intent), then completed; one without it is appended to after.
   */
  update?(entry: ChangeEntry): Promise<void>;
  /** Drops a pending entry whose write failed and changed nothing. */
  discard?(changeId: string): Promise<void>;
  /** The entries of a fleet run on this journal's site (oldest first); without it, `entries()` is filtered. */
  byRun?(runId: string): Promise<ChangeEntry[]>;
  /** The site this view reads and writes (site-key.ts); a store's view per site. */
  readonly site?: string;
  /** A view of the same store for one site: createContext binds a store's journal to its site. */
  forSite?(site: string): ChangeJournal;
  /**
   * Runs `run` holding this view's undo lock across every process that shares the store (the
   * PostgreSQL store: an advisory lock per site). Without it, undos of a file journal are
   * serialised by a lock file beside it (undo/serial.ts).
   */
  serialize?<T>(run: () => Promise<T>): Promise<T>;
}
