import { appendFileSync, chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isSecretKey } from '../../redact.js';
import { stateHome } from '../journal-path.js';

const KEEP = 500;

/** The tool shell's history: `$XDG_STATE_HOME/cms-admin/shell-history` (default ~/.local/state), 0600. */
export function historyFile(): string {
  return path.join(stateHome(), 'cms-admin', 'shell-history');
}

/** The last lines, newest first (readline's order); none when the file is missing or unreadable. */
export function loadHistory(file = historyFile()): string[] {
  try {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    // Kept short on disk too: rewritten once it is twice the size read back.
    if (lines.length > 2 * KEEP) writeFileSync(file, `${lines.slice(-KEEP).join('\n')}\n`, { mode: 0o600 });
    return lines.slice(-KEEP).reverse();
  } catch {
    return [];
  }
}

/**
 * Appends a line unless it gives a secret: a `password=…`-like param (update-user, create-user)
 * stays in this session's memory only. Never throws: history is a convenience.
 */
export function rememberLine(line: string, file = historyFile()): boolean {
  if (carriesSecret(line)) return false;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    appendFileSync(file, `${line.replace(/\n/g, ' ')}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return true;
  } catch {
    return false;
  }
}

/** Any key the line names (`key=` or `"key":`) that holds a secret. */
export function carriesSecret(line: string): boolean {
  const keys = [...line.matchAll(/([\w-]+)\s*=|"([\w-]+)"\s*:/g)].map((m) => m[1] ?? m[2] ?? '');
  return keys.some(isSecretKey);
}
