/** The undo engine's own data; what tools declare is in tools/undo-data.ts. */
import type { PostTermChange, UndoState } from '../tools/undo-data.js';

export type {
  AccountRolesDone,
  NetworkUserState,
  PostTermChange,
  RoleState,
  TaxonomyRef,
  TermState,
  TrashedPost,
  UndoScope,
  UndoState,
  UserState,
} from '../tools/undo-data.js';

export interface ItemConflict {
  item: string;
  reason: string;
  /** A write that failed (a fault, not someone's edit): the undo is incomplete, a rerun finishes it. */
  failed?: true;
}

/** What one restore did (or, in a dry run, would do), item by item. */
export interface RestoreOutcome {
  restored: string[];
  conflicts: ItemConflict[];
  /** Items already as they were before: nothing to write (a second run after a fault). */
  skipped: string[];
  /** The site before the restore and after it, keyed by today's ids (the undo entry's before/after). */
  current: UndoState;
  result: UndoState;
  /** Terms recreated with new ids: old → new. */
  idMap: Record<string, number>;
  /** What the restore did to posts' terms (its own change, for its journal entry). */
  postChanges?: Record<string, PostTermChange>;
  /** Posts taken out of the Trash by this restore. */
  untrashed?: string[];
  /** A write of the restore failed (not a conflict): running the undo again finishes it. */
  failed?: boolean;
}

export interface RestoreOptions {
  force?: boolean;
  dryRun?: boolean;
}

export function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

/** Sets one object's state in `state` (creating the record). */
export function put<K extends 'terms' | 'posts' | 'users'>(
  state: UndoState,
  key: K,
  id: number | string,
  value: NonNullable<UndoState[K]>[string],
): void {
  const record = (state[key] ?? {}) as Record<string, unknown>;
  record[String(id)] = value;
  state[key] = record as UndoState[K];
}

/** A write of the restore that failed: said like a conflict, and the undo marked incomplete. */
export function writeFailed(out: RestoreOutcome, item: string, reason: string): void {
  out.conflicts.push({ item, reason, failed: true });
  out.failed = true;
}
