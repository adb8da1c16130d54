import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChangeEntry } from '../tools/journal-port.js';
import { isDamaged, parseLine } from './journal-file.js';
import { defaultStorePath, stateHome } from './journal-path.js';

/**
 * Journals of before issue #47 (one JSON Lines file per site, or one named by --journal): read
 * once into the change store, the file kept as it was. Damaged lines are named on stderr and
 * left out; an entry glued onto a cut line is recovered (journal-file.ts).
 */
export function importJsonl(file: string): ChangeEntry[] {
  const isEntry = (value: unknown) => typeof value === 'object' && value !== null && typeof (value as ChangeEntry).change_id === 'string';
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const out: ChangeEntry[] = [];
  let damaged = 0;
  lines.forEach((line, i) => {
    for (const item of parseLine<ChangeEntry>(Buffer.from(line), 0, i === lines.length - 1, isEntry).reverse()) {
      if (isDamaged(item)) damaged++;
      else out.push(item);
    }
  });
  if (damaged) process.stderr.write(`cms-admin: ${damaged} damaged line(s) of ${file} were left out when it was imported into the change store (the file is kept as it is).\n`);
  return out;
}

/** `~/.local/state/cms-admin/changes/127.0.0.1_8881.jsonl`: the per-site file the default store imports for a site. */
export function legacyJournalFor(storeFile: string, site: string): string | undefined {
  if (path.resolve(storeFile) !== path.resolve(defaultStorePath())) return undefined;
  const url = new URL(site);
  const key = `${url.hostname}${url.port ? `_${url.port}` : ''}${url.pathname.replace(/\/+$/, '')}`.replace(/[^a-zA-Z0-9._-]+/g, '_');
  return path.join(stateHome(), 'cms-admin', 'changes', `${key}.jsonl`);
}
