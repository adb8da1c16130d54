import type { ToolContext } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import { type ChangeEntry, type ChangeJournal, entriesOf, isUndone, undoneBy } from './journal.js';
import { appendEntry } from './record.js';
import { restoreState } from './restore.js';
import { mapState, type UndoReport, undoEntryOf, undoReport } from './undo-entry.js';
import type { UndoState } from './state.js';

export interface UndoItemConflict {
  item: string;
  reason: string;
}

/** What undoing one change did (its fields: undo-entry.ts). */
export type { UndoReport } from './undo-entry.js';

export interface UndoOptions {
  force?: boolean;
  dry_run?: boolean;
}

/**
 * Undoes one journalled change (omitted id: the last change not undone yet, undos excluded):
 * every object it touched is put back as it was, where it is still as the change left it;
 * the rest are conflicts, left alone unless `force`. The undo is journalled too (`undoes`), so
 * undoing it is a redo. Running it again after a fault finishes what is left (restore.ts).
 */
export async function undoChange(
  context: ToolContext,
  journal: ChangeJournal,
  opts: { change_id?: string } & UndoOptions = {},
): Promise<UndoReport> {
  const entries = await journal.entries();
  const { username } = await context.client.connect();
  const mine = entriesOf(entries, username);
  const entry = opts.change_id === undefined ? lastUndoable(mine) : mine.find((e) => e.change_id === opts.change_id);
  if (!entry) {
    throw opts.change_id === undefined
      ? new ToolError('nothing_to_undo', `No change made as ${username} in the journal is left to undo.`, {
          hint: 'list-changes shows what is recorded.',
        })
      : new ToolError('change_not_found', `No change ${opts.change_id} made as ${username} in the journal.`, {
          hint: 'list-changes shows the change ids; only the account that made a change can undo it.',
        });
  }
  if (!entry.reversible) {
    throw new ToolError(
      'change_not_reversible',
      `Change ${entry.change_id} (${entry.summary}) cannot be undone: ${entry.why_not ?? 'not reversible'}.`,
    );
  }
  const undo = undoneBy(entries, entry.change_id);
  // An undo cut short by a fault is journalled with what it did, marked incomplete; running it
  // again finishes the rest. A complete one is not run twice.
  if (undo && !opts.force && !undo.incomplete) {
    throw new ToolError('already_undone', `Change ${entry.change_id} was already undone by ${undo.change_id}.`, {
      hint: `To redo it, undo ${undo.change_id}.`,
      details: { undo_change_id: undo.change_id },
    });
  }
  return reverse(context, entries, entry, opts);
}

/** The last `n` changes not undone yet, newest first; one that cannot be undone is skipped and said. */
export async function undoLast(
  context: ToolContext,
  journal: ChangeJournal,
  n: number,
  opts: UndoOptions = {},
): Promise<UndoReport[]> {
  const entries = await journal.entries();
  const { username } = await context.client.connect();
  const chosen = entriesOf(entries, username)
    .filter((e) => !e.undoes && !isUndone(entries, e))
    .slice(-n)
    .reverse();
  const reports: UndoReport[] = [];
  for (const entry of chosen) {
    if (!entry.reversible) {
      reports.push({
        change_id: entry.change_id,
        restored: [],
        conflicts: [],
        skipped: [`${entry.summary}: cannot be undone (${entry.why_not ?? 'not reversible'})`],
        // A dry run says so here too (undo --last N --dry-run printed "restored nothing").
        ...(opts.dry_run ? { dry_run: true as const } : {}),
      });
      continue;
    }
    // Later undos add id maps (recreated terms) that older entries need: read the journal again.
    reports.push(await reverse(context, await journal.entries(), entry, opts));
  }
  return reports;
}

function lastUndoable(entries: readonly ChangeEntry[]): ChangeEntry | undefined {
  return entries.filter((e) => !e.undoes && !isUndone(entries, e)).at(-1);
}

async function reverse(
  context: ToolContext,
  entries: readonly ChangeEntry[],
  entry: ChangeEntry,
  opts: UndoOptions,
): Promise<UndoReport> {
  const resolve = idResolver(entries.slice(entries.indexOf(entry) + 1));
  const expected = mapState(entry.after as UndoState, resolve);
  const target = mapState(entry.before as UndoState, resolve);
  const dryRun = opts.dry_run === true;
  const out = await restoreState(context, expected, target, { force: opts.force, dryRun });
  const report = undoReport(entry, target, out, dryRun);
  if (dryRun) return report;
  // Nothing restored and nothing found already restored: the change still stands.
  if (!out.restored.length && !out.skipped.length) return report;
  const undoEntry = undoEntryOf(entry, out, opts.force, await userName(context));
  const failed = await appendEntry(context, undoEntry, []);
  if (failed) report.conflicts.push({ item: 'journal', reason: failed });
  else report.undo_change_id = undoEntry.change_id;
  return report;
}

async function userName(context: ToolContext): Promise<{ user?: string }> {
  try {
    return { user: (await context.client.connect()).username };
  } catch {
    return {};
  }
}

/** Term ids recreated by later undos, followed to today's id. */
function idResolver(later: readonly ChangeEntry[]): (id: number) => number {
  const map = new Map<number, number>();
  for (const e of later) {
    for (const [from, to] of Object.entries((e.after as UndoState | undefined)?.id_map ?? {}))
      map.set(Number(from), to);
  }
  return (id) => {
    let now = id;
    for (let hops = 0; map.has(now) && hops < 1000; hops++) now = map.get(now) as number;
    return now;
  };
}
