import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChangeEntry } from '../tools/journal-port.js';
import { isDamaged, parseLine } from './journal-file.js';
import { defaultStorePath, stateHome } from './journal-path.js';
import type { SqliteDatabase } from './sqlite.js';

/**
 * Journals of before issue #47 (one JSON Lines file per site, or one named by --journal): read
 * once into the change store, the file kept as it was. Damaged lines are named on stderr and
 * left out; an entry glued onto a cut line is recovered (journal-file.ts).
 */
export function importJsonl(file: string, done = 'imported into the change store'): ChangeEntry[] {
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
  if (damaged) process.stderr.write(`cms-admin: ${damaged} damaged line(s) of ${file} were left out when it was ${done} (the file is kept as it is).\n`);
  return out;
}

/** `~/.local/state/cms-admin/changes/127.0.0.1_8881.jsonl`: the per-site file the default store imports for a site. */
export function legacyJournalFor(storeFile: string, site: string): string | undefined {
  if (path.resolve(storeFile) !== path.resolve(defaultStorePath())) return undefined;
  const url = new URL(site);
  const key = `${url.hostname}${url.port ? `_${url.port}` : ''}${url.pathname.replace(/\/+$/, '')}`.replace(/[^a-zA-Z0-9._-]+/g, '_');
  return path.join(stateHome(), 'cms-admin', 'changes', `${key}.jsonl`);
}

/** Every old journal a store may import: the file it was named by, and the default store's per-site files. */
export function legacyJournalsOf(storeFile: string, named: string | undefined): string[] {
  const out = named ? [named] : [];
  if (path.resolve(storeFile) !== path.resolve(defaultStorePath())) return out;
  const folder = path.join(stateHome(), 'cms-admin', 'changes');
  try {
    for (const name of readdirSync(folder)) if (name.endsWith('.jsonl')) out.push(path.join(folder, name));
  } catch {
    // no folder: no journals of before
  }
  return out;
}

/**
 * The entries of old journals not imported yet (or grown since), for a view of every site
 * (issue #59.11): `changes --journal old.jsonl` right after an upgrade shows the history it holds
 * without a command tied to a site having imported it first. Entries already in the store are
 * left out; the files are imported, under their site, when a site's view first opens them.
 */
export function notYetImported(db: SqliteDatabase, files: readonly string[]): ChangeEntry[] {
  const seen = db.prepare('SELECT bytes FROM imports WHERE file = ?');
  const known = db.prepare('SELECT 1 AS x FROM changes WHERE id = ?');
  const out: ChangeEntry[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    if (Number(seen.get(file)?.bytes ?? -1) === statSync(file).size) continue;
    for (const entry of importJsonl(file, 'read')) if (!known.get(entry.change_id)) out.push(entry);
  }
  return out;
}
