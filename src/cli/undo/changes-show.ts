import { renderTable } from '../render/table.js';
import { closeSync, openSync, writeSync } from 'node:fs';
import { tightenExisting } from '../../audit.js';
import { type PruneRule, stillRunning } from '../../undo/change-store.js';
import { type ChangeEntry, type ChangeJournal, storeAt } from '../../undo/journal.js';
import { isDamaged } from '../../undo/journal-file.js';
import { latestOf, UndoneIndex } from '../../undo/journal-read.js';
import { siteKey } from '../../undo/site-key.js';
import { cliJournal } from '../journal-path.js';
import { resolveCliSiteConfig } from '../site-config.js';

export interface ChangesOptions {
  journal?: string;
  /** The change store of `mcp --store` (postgres://…); --journal wins. */
  store?: string;
  limit: string;
  json?: boolean;
  prune?: boolean;
  olderThan?: string;
  maxSize?: string;
  repair?: boolean;
  export?: string;
  allSites?: boolean;
}

/**
 * `cms-admin changes`: the latest entries of the change store (src/undo/change-store.ts) for the
 * connected site (`--all-sites`: every site, with a site column), as a table, JSON lines, or
 * exported whole to a file. An index read: a store of a million entries costs what 20 cost.
 * `--prune` deletes old entries inside the database.
 */
export async function showChanges(options: ChangesOptions): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    process.stderr.write('--limit takes a whole number ≥ 1.\n');
    return 2;
  }
  // A journal named by --journal or CMS_JOURNAL is read as it is (every site in it: the operator
  // reading a copied journal needs no site); the person's own store, for the connected site.
  const named = options.journal || (!options.store && process.env.CMS_JOURNAL);
  const file = await journalFile(options.journal || options.store);
  if (!file) return 2;
  const store = storeAt(file);
  if (options.repair) {
    process.stdout.write(`Nothing to repair: the change journal ${store.file} is a database (SQLite or PostgreSQL), written in whole transactions (damaged lines of an older JSON Lines journal are named when it is imported).\n`);
    return 0;
  }
  if (options.prune || options.olderThan || options.maxSize) return prune(store, options);
  const site = options.allSites || named ? undefined : siteKey((await resolveCliSiteConfig()).url);
  const journal = store.journal(site);
  if (options.export !== undefined) return exportTo(options.export, journal);
  const shown: ChangeEntry[] = [];
  const undone = new UndoneIndex();
  let more = false;
  for await (const item of latestOf(journal)) {
    if (isDamaged(item)) continue;
    if (shown.length === limit) {
      more = true;
      break;
    }
    undone.add(item);
    shown.push(item);
  }
  shown.reverse();
  if (options.json) {
    for (const entry of shown) process.stdout.write(`${JSON.stringify(entry)}\n`);
    return 0;
  }
  const total = more ? await store.count(site) : shown.length;
  const where = site ? ` of ${site}` : '';
  const sites = !site && new Set(shown.map((e) => e.site)).size > 1;
  process.stdout.write(`${table(shown, undone, sites)}\n${shown.length} of ${total} changes${where} in ${store.file}\n`);
  // The one rule (#52.9): `undo` and `undo --last N` take changes that are not undos; an undo is redone by its id.
  if (shown.some((e) => e.undoes && e.reversible && !undone.isUndone(e)))
    process.stdout.write('by id: an undo; `cms-admin undo ID` redoes it (`undo` and `undo --last N` take back only changes that are not undos).\n');
  if (shown.some(incomplete))
    process.stdout.write('incomplete: the write was begun and never completed (a process killed mid-write) or its outcome could not be read back: it may have been applied; `cms-admin undo ID` reads the site and puts back what changed.\n');
  return 0;
}

const incomplete = (e: ChangeEntry) => (e.status === 'pending' && !stillRunning(e)) || e.status === 'unknown';

function table(shown: ChangeEntry[], undone: UndoneIndex, sites: boolean): string {
  const rows = shown.map((e) => [
    e.change_id,
    e.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    ...(sites ? [e.site ?? '?'] : []),
    `${e.user ?? '?'}${e.user_id === undefined ? '' : ` #${e.user_id}`}`,
    e.tool,
    incomplete(e) ? 'incomplete' : e.status === 'pending' ? 'running' : !e.reversible ? 'no' : undone.isUndone(e) ? 'undone' : e.undoes ? 'by id' : 'yes',
    e.summary,
  ]);
  return renderTable(['change_id', 'when', ...(sites ? ['site'] : []), 'user', 'tool', 'undoable', 'summary'], rows);
}

/** Every entry (of the site, or all) as JSON Lines in a private file, oldest first. */
async function exportTo(out: string, journal: ChangeJournal): Promise<number> {
  const entries = await journal.entries();
  // An existing file keeps its mode when written: made 0600 first, or refused (#58.6).
  try {
    tightenExisting(out, { what: 'The export file', why: 'It names users and emails', option: '--export' });
  } catch (err) {
    process.stderr.write(`${(err as Error).message} Nothing was exported.\n`);
    return 1;
  }
  const fd = openSync(out, 'w', 0o600);
  try {
    for (const entry of entries) writeSync(fd, `${JSON.stringify(entry)}\n`);
  } finally {
    closeSync(fd);
  }
  process.stdout.write(`Exported ${entries.length} change(s) to ${out} (JSON Lines, mode 0600).\n`);
  return 0;
}

const UNITS_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const UNITS_BYTES: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9 };

async function prune(store: ReturnType<typeof storeAt>, options: ChangesOptions): Promise<number> {
  const rule: PruneRule = {};
  if (options.olderThan !== undefined) {
    const m = /^(\d+)\s*([hdw])$/i.exec(options.olderThan.trim());
    if (!m) return usage(`--older-than takes an age such as 90d, 12h or 8w (got '${options.olderThan}').`);
    rule.olderThanMs = Number(m[1]) * (UNITS_MS[(m[2] as string).toLowerCase()] as number);
  }
  if (options.maxSize !== undefined) {
    const m = /^(\d+)\s*(kb|mb|gb)$/i.exec(options.maxSize.trim());
    if (!m) return usage(`--max-size takes a size such as 50MB or 1GB (got '${options.maxSize}').`);
    rule.maxBytes = Number(m[1]) * (UNITS_BYTES[(m[2] as string).toLowerCase()] as number);
  }
  if (options.prune && rule.olderThanMs === undefined && rule.maxBytes === undefined)
    return usage('--prune needs --older-than AGE and/or --max-size SIZE (what to delete from the journal).');
  if (!options.prune) return usage('--older-than and --max-size go with --prune.');
  try {
    const done = await store.prune(rule);
    process.stdout.write(`Deleted ${done.removed} older change(s) from ${store.file} (they can no longer be undone; \`changes --export FILE\` first keeps a copy); kept ${done.kept}.\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`The journal ${store.file} was left as it was: ${(err as Error).message}\n`);
    return 1;
  }
}

function usage(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}

/** The journal file `changes` reads: the same choice as the surfaces that write it. */
async function journalFile(flag: string | undefined): Promise<string | undefined> {
  // A journal named by --journal or CMS_JOURNAL is read as it is: no site needed to find it.
  const named = flag || process.env.CMS_JOURNAL;
  const file = named || cliJournal(undefined, (await resolveCliSiteConfig()).url);
  if (file !== 'off') return file;
  process.stderr.write('The change journal is off (--journal off / CMS_JOURNAL=off).\n');
  return undefined;
}
