import { hostname } from 'node:os';
import type { ChangeEntry } from '../tools/journal-port.js';
import { ToolError } from '../tools/tool-error.js';

/** What the SQLite store (change-store.ts) and the PostgreSQL one (change-store-pg.ts) share. */

const JOURNAL_HINT =
  'Fix the cause (disk space, permissions, the path), or choose another journal with --journal FILE / CMS_JOURNAL=FILE; --journal off (CMS_JOURNAL=off) writes without undo.';

/** What a store error was about, kept beside it (not in the answer's payload). */
interface StoreError {
  file: string;
  cause: string;
  /** The entry to complete is not in the store: it was deleted or replaced since the intent. */
  gone?: boolean;
}
const about = new WeakMap<ToolError, StoreError>();

function storeError(message: string, hint: string, what: StoreError): ToolError {
  const err = new ToolError('journal_unavailable', message, { hint });
  about.set(err, what);
  return err;
}

/** The store cannot be written: the write it was to record is not made (issue #47). */
export function journalUnavailable(file: string, cause: string, hint = JOURNAL_HINT): ToolError {
  return storeError(`The change journal ${file} cannot be written (${cause}), so this write was not made: it could not be undone.`, hint, { file, cause });
}

/** The same, said by a read (`changes`, `undo`, list-changes): no write is in question. */
export function forReading(err: unknown): unknown {
  const what = err instanceof ToolError ? about.get(err) : undefined;
  if (!what || !(err instanceof ToolError)) return err;
  return storeError(`The change journal ${what.file} cannot be read (${what.cause}).`, err.hint ?? JOURNAL_HINT, what);
}

/** An intent to complete is no longer in the store (deleted or replaced while its write ran). */
export function entryGone(file: string, changeId: string): ToolError {
  const cause = `the change journal ${file} was deleted or replaced while the change was made`;
  return storeError(`Change ${changeId} is not in the change journal ${file}: it was deleted or replaced since the change began.`, JOURNAL_HINT, { file, cause, gone: true });
}

/**
 * A store error as a write that WAS made must tell it (record.ts, issue #59.7): its cause alone
 * (not "this write was not made"), and whether the entry is gone with the store.
 */
export function storeFailure(err: unknown): { cause: string; gone: boolean } {
  const what = err instanceof ToolError ? about.get(err) : undefined;
  return what ? { cause: what.cause, gone: what.gone === true } : { cause: firstLine(err), gone: false };
}

export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

export interface PruneRule {
  olderThanMs?: number;
  maxBytes?: number;
}

/** Settings for the automatic retention (docs/undo.md). */
export function retention(): { maxBytes: number; keepMs: number } {
  const mb = Number(process.env.CMS_JOURNAL_MAX_MB ?? 100);
  const days = Number(process.env.CMS_JOURNAL_KEEP_DAYS ?? 90);
  return { maxBytes: Number.isFinite(mb) ? mb * 1e6 : 100e6, keepMs: (Number.isFinite(days) ? days : 90) * 86_400_000 };
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
