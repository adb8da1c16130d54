import { renderTable } from './render/table.js';
import { type ChangeEntry, fileJournal } from '../undo/journal.js';
import { countLines, describeDamage, isDamaged } from '../undo/journal-file.js';
import { latestOf, UndoneIndex } from '../undo/journal-read.js';
import { pruneJournal, type PruneRule } from '../undo/journal-prune.js';
import { cliJournal } from './journal-path.js';
import { resolveCliSiteConfig } from './site-config.js';

export interface ChangesOptions {
  journal?: string;
  limit: string;
  json?: boolean;
  prune?: boolean;
  olderThan?: string;
  maxSize?: string;
  repair?: boolean;
}

/**
 * `cms-admin changes`: the journal's last entries as a table, read from the file's end (a
 * journal of 100,000 entries costs what 20 cost); damaged lines met are named on stderr.
 * `--prune` / `--repair` rewrite the file (src/undo/journal-prune.ts).
 */
export async function showChanges(options: ChangesOptions): Promise<number> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    process.stderr.write('--limit takes a whole number ≥ 1.\n');
    return 2;
  }
  const file = await journalFile(options.journal);
  if (!file) return 2;
  if (options.prune || options.repair || options.olderThan || options.maxSize) return prune(file, options);
  const shown: ChangeEntry[] = [];
  const undone = new UndoneIndex();
  const damaged: string[] = [];
  let more = false;
  for await (const item of latestOf(fileJournal(file))) {
    if (isDamaged(item)) {
      damaged.push(await describeDamage(file, item));
      continue;
    }
    if (shown.length === limit) {
      more = true;
      break;
    }
    undone.add(item);
    shown.push(item);
  }
  shown.reverse();
  for (const where of damaged)
    process.stderr.write(
      `cms-admin: ${where}: it is skipped and the changes around it are listed; \`undo\` without a change id refuses until it is set aside with \`cms-admin changes --repair\` (or give the change id).\n`,
    );
  if (options.json) {
    for (const entry of shown) process.stdout.write(`${JSON.stringify(entry)}\n`);
    return 0;
  }
  // The total counts lines (nothing parsed): cheap next to reading every entry.
  const total = more ? (await countLines(file)) - damaged.length : shown.length;
  process.stdout.write(`${table(shown, undone)}\n${shown.length} of ${total} changes in ${file}\n`);
  return 0;
}

function table(shown: ChangeEntry[], undone: UndoneIndex): string {
  const rows = shown.map((e) => [
    e.change_id,
    e.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
    `${e.user ?? '?'}${e.user_id === undefined ? '' : ` #${e.user_id}`}`,
    e.tool,
    !e.reversible ? 'no' : undone.isUndone(e) ? 'undone' : 'yes',
    e.summary,
  ]);
  return renderTable(['change_id', 'when', 'user', 'tool', 'undoable', 'summary'], rows);
}

const UNITS_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const UNITS_BYTES: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9 };

async function prune(file: string, options: ChangesOptions): Promise<number> {
  const rule: PruneRule = { repair: options.repair };
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
    return usage('--prune needs --older-than AGE and/or --max-size SIZE (what to move out of the journal).');
  if (!options.prune && (rule.olderThanMs !== undefined || rule.maxBytes !== undefined))
    return usage('--older-than and --max-size go with --prune.');
  try {
    const done = await pruneJournal(file, rule);
    const parts = [`kept ${done.kept} change(s) in ${file}`];
    if (options.prune) parts.push(`moved ${done.moved} older one(s) to ${done.movedTo} (they can no longer be undone)`);
    if (options.repair) parts.push(done.damaged ? `set ${done.damaged} damaged line(s) aside in ${done.damagedTo}` : 'no damaged line found');
    process.stdout.write(`${parts.join('; ')}.\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`The journal ${file} was left as it was: ${(err as Error).message}\n`);
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
