import { appendFile } from 'node:fs/promises';
import { maskSecretParams, redactSecrets } from './redact.js';
import { summarizeValue } from './summary.js';

/** One line of the audit log: every write a tool attempted, secrets masked. */
export interface AuditEntry {
  time: string;
  /** The site account the toolkit wrote as; absent when signing in failed. */
  user?: string;
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
 * Appends JSON lines to `path` (created with mode 0600: it names users and emails). Writes are
 * chained so lines never interleave, also when parallel tool calls finish together. A failed
 * append fails only its own entry: the chain goes on, so the next write is recorded once the
 * file is writable again.
 */
export function fileAuditSink(path: string): AuditSink {
  let queue: Promise<void> = Promise.resolve();
  return (entry) => {
    const line = `${JSON.stringify(entry)}\n`;
    const append = queue.then(() => appendFile(path, line, { mode: 0o600 }));
    queue = append.catch(() => undefined);
    return append;
  };
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

/**
 * Records one write in `sink`. Returns why it could not be recorded (also said on stderr), so
 * the caller can put it in the tool's result: a gap in the record must not go unnoticed.
 */
export async function recordWrite(
  sink: AuditSink,
  write: { user?: string; tool: string; params: unknown; outcome: Outcome; detail?: unknown },
  secrets: readonly string[],
): Promise<string | undefined> {
  const { outcome } = write;
  const summary = outcome.ok ? summarizeValue(outcome.result).line : `${outcome.error.code}: ${outcome.error.message}`;
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    user: write.user,
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
