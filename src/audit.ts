import { chmodSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { maskSecretParams, redactSecrets } from './redact.js';
import { summarizeValue } from './summary.js';

/** One line of the audit log: every write a tool attempted, secrets masked. */
export interface AuditEntry {
  time: string;
  /** The site account the toolkit wrote as; absent when signing in failed. */
  user?: string;
  /** The site profile's name (issue #38), when the call ran on one: `audit --site NAME` shows its own. */
  site?: string;
  /** The fleet run it was part of (`invoke --sites`). */
  run_id?: string;
  tool: string;
  params: unknown;
  ok: boolean;
  /** One-line summary of the result, or the error's code and message. */
  summary: string;
  /** The full result when the tool answered with a condensed one (every post of a bulk write). */
  detail?: unknown;
}

export type AuditSink = (entry: AuditEntry) => Promise<void>;

/**
 * Appends JSON lines to `path`, a file only its owner may read (mode 0600: it names users and
 * emails). A file that already exists with looser permissions is tightened when the sink is
 * made, before anything is written, and again on every append (it may have been replaced);
 * where that is not possible, the sink refuses with an error that says how to fix it. Writes
 * are chained so lines never interleave, also when parallel tool calls finish together. A
 * failed append fails only its own entry: the chain goes on, so the next write is recorded once
 * the file is writable again.
 */
export function fileAuditSink(path: string): AuditSink {
  const append = privateLineAppender(path, AUDIT_FILE);
  return (entry) => append(`${JSON.stringify(entry)}\n`);
}

/** What a private file is, for the error that says it cannot be made private. */
export interface PrivateFileLabel {
  /** "The audit log" */
  what: string;
  /** Why it must be private: "It names users and emails". */
  why: string;
  /** How to choose another file: "--audit-log / CMS_AUDIT_LOG". */
  option: string;
  /** The error to throw; AuditLogError by default. */
  error?: (message: string) => Error;
}

const AUDIT_FILE: PrivateFileLabel = { what: 'The audit log', why: 'It names users and emails', option: '--audit-log / CMS_AUDIT_LOG' };

/**
 * Appends lines to a file only its owner may read (0600), tightened now and on every append;
 * appends are chained so lines never interleave, and a failed one fails only itself. Each line
 * is written whole or not at all, and never joins a damaged tail (appendPrivately). Shared by
 * the audit log and the change journal (src/undo/journal.ts).
 */
export function privateLineAppender(path: string, label: PrivateFileLabel): (line: string) => Promise<void> {
  tightenExisting(path, label);
  let queue: Promise<void> = Promise.resolve();
  return (line) => {
    const append = queue.then(() => appendPrivately(path, line, label));
    queue = append.catch(() => undefined);
    return append;
  };
}

/** Modes have no such meaning on Windows (ACLs decide there). */
const POSIX_MODES = process.platform !== 'win32';

/**
 * A file that exists with looser permissions is made 0600 before anything is written to it, or
 * refused with an error that says how to fix it (the audit log's rule; `changes --export` too).
 */
export function tightenExisting(path: string, label: PrivateFileLabel): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return; // not there yet: created with 0600 on the first append
  }
  if (!POSIX_MODES || (mode & 0o077) === 0) return;
  try {
    chmodSync(path, 0o600);
  } catch (err) {
    throw looseLogError(path, mode, err, label);
  }
}

async function appendPrivately(path: string, line: string, label: PrivateFileLabel): Promise<void> {
  // a+: appends, and reads the last byte (a file left without its final newline).
  const handle = await open(path, 'a+', 0o600);
  try {
    const { mode, size } = await handle.stat();
    if (POSIX_MODES && (mode & 0o077) !== 0) {
      await handle.chmod(0o600).catch((err: unknown) => {
        throw looseLogError(path, mode, err, label);
      });
    }
    // A tail cut short (a full disk, a killed writer) would swallow this line: start a fresh one.
    const bytes = Buffer.from((await endsOpen(handle, size)) ? `\n${line}` : line);
    await writeWhole(handle, bytes);
  } finally {
    await handle.close();
  }
}

async function endsOpen(handle: FileHandle, size: number): Promise<boolean> {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/**
 * One write call: a line is written whole or not at all. A short write (the disk filled up, the
 * file size limit) leaves part of it at the end: that part is cut off again, checked byte for
 * byte first so a line another process appended meanwhile is never cut. If even that fails, the
 * next append still starts on a fresh line (endsOpen).
 */
async function writeWhole(handle: FileHandle, bytes: Buffer): Promise<void> {
  const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
  if (bytesWritten === bytes.length) return;
  const { size } = await handle.stat();
  const tail = Buffer.alloc(bytesWritten);
  if (bytesWritten > 0) await handle.read(tail, 0, bytesWritten, size - bytesWritten);
  const removed = tail.equals(bytes.subarray(0, bytesWritten)) && (await handle.truncate(size - bytesWritten).then(() => true, () => false));
  throw new Error(
    `the disk is full (ENOSPC) or the file reached its size limit (EFBIG): ${bytesWritten} of ${bytes.length} bytes written${removed ? ', removed again' : ''}`,
  );
}

/** The audit log is readable by others and cannot be made private: say so, with the fix. */
export class AuditLogError extends Error {
  override readonly name = 'AuditLogError';
  readonly code = 'audit_log_not_private';
}

function looseLogError(path: string, mode: number, err: unknown, label: PrivateFileLabel): Error {
  const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
  const message = `${label.what} ${path} is readable by others (mode ${(mode & 0o777).toString(8).padStart(4, '0')}) and could not be made private (0600): ${why}. ${label.why}: run \`chmod 600 ${path}\` as its owner, or choose another file with ${label.option}.`;
  return label.error ? label.error(message) : new AuditLogError(message);
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

/**
 * Records one write in `sink`. Returns why it could not be recorded (also said on stderr), so
 * the caller can put it in the tool's result: a gap in the record must not go unnoticed.
 */
export async function recordWrite(
  sink: AuditSink,
  write: { user?: string; site?: string; run_id?: string; tool: string; params: unknown; outcome: Outcome; detail?: unknown },
  secrets: readonly string[],
): Promise<string | undefined> {
  const { outcome } = write;
  const summary = outcome.ok ? summarizeValue(outcome.result).line : `${outcome.error.code}: ${outcome.error.message}`;
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    user: write.user,
    ...(write.site ? { site: write.site } : {}),
    ...(write.run_id ? { run_id: write.run_id } : {}),
    tool: write.tool,
    params: maskSecretParams(write.params),
    ok: outcome.ok,
    summary,
    ...(write.detail === undefined ? {} : { detail: write.detail }),
  };
  try {
    await sink(redactSecrets(entry, secrets));
    return undefined;
  } catch (err) {
    const why = `This ${outcome.ok ? 'write' : 'attempt'} is not in the audit log: ${(err as Error).message.split('\n')[0]}`;
    process.stderr.write(`cms-admin: ${why}\n`);
    return `${why}. Tell the site owner; the log records again once the file is writable.`;
  }
}
