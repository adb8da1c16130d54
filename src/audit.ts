import { appendFile } from 'node:fs/promises';

/** One line of the audit log: every write a tool attempted, secrets masked. */
export interface AuditEntry {
  time: string;
  tool: string;
  params: unknown;
  ok: boolean;
  /** One-line summary of the result, or the error's code and message. */
  summary: string;
}

export type AuditSink = (entry: AuditEntry) => Promise<void>;

/**
 * Appends JSON lines to `path` (created with mode 0600: it names users and emails). Writes are
 * chained so lines never interleave, also when parallel tool calls finish together.
 */
export function fileAuditSink(path: string): AuditSink {
  let queue: Promise<void> = Promise.resolve();
  return (entry) => {
    const line = `${JSON.stringify(entry)}\n`;
    queue = queue.then(() => appendFile(path, line, { mode: 0o600 }));
    return queue;
  };
}
