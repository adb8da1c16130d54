import { readFile, writeFile } from 'node:fs/promises';
import { resolveInstance } from './paths.js';
import type { CapturedMail, SandboxOptions } from './types.js';

/** File where the sandbox mu-plugin's wp_mail() appends one JSON line per message. */
export function mailLogPath(opts: SandboxOptions = {}): string {
  return resolveInstance(opts).mailLog;
}

/** Mail captured since the last reset/seed/clear, oldest first. */
export async function readMailLog(opts: SandboxOptions = {}): Promise<CapturedMail[]> {
  let raw: string;
  try {
    raw = await readFile(mailLogPath(opts), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return raw
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CapturedMail);
}

export async function clearMailLog(opts: SandboxOptions = {}): Promise<void> {
  await writeFile(mailLogPath(opts), '');
}
