import type { ToolContext } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import { type ChangeEntry, type ChangeJournal, entriesOf, isUndone, undoneBy } from './journal.js';
import { lastReversible, siteOf, undoTail } from './journal-read.js';
import { appendEntry } from './record.js';
import { restoreState } from './restore.js';
import { withUndoLock } from './serial.js';
import { mapState, type UndoReport, undoEntryOf, undoReport } from './undo-entry.js';
import { locateCreated, readState, type UndoScope, type UndoState } from './state.js';
import { put } from './types.js';
import { stillRunning } from './change-store.js';

export interface UndoItemConflict {
  item: string;
  reason: string;
  /** A write that failed (a fault, not someone's edit): a rerun finishes it. */
  failed?: true;
}

/** What undoing one change did (its fields: undo-entry.ts). */
export type { UndoReport } from './undo-entry.js';

export interface UndoOptions {
  force?: boolean;
  dry_run?: boolean;
  /**
   * What ran the undo, as its journal entry's `tool` (the undo-change tool passes its name);
   * the engine names no tool itself. Default: 'undo'.
   */
  recordAs?: string;
}

/**
 * Undoes one journalled change (omitted id: the last change not undone yet, undos excluded):
 * every object it touched is put back as it was, where it is still as the change left it;
 * the rest are conflicts, left alone unless `force`. The undo is journalled too (`undoes`), so
 * undoing it is a redo. Running it again after a fault finishes what is left (restore.ts).
 * Undos of one journal run one at a time (serial.ts), from choosing the entry to journalling
 * the undo, so a change is never undone twice by undos that ran at once.
 */
export async function undoChange(
  context: ToolContext,
  journal: ChangeJournal,
  opts: { change_id?: string } & UndoOptions = {},
): Promise<UndoReport> {
  const run = async () => {
    const entries = await undoTail(context, journal, opts);
    return reverse(context, entries, await chooseChange(context, entries, opts, journal), opts);
  };
  // A dry run writes nothing: it waits for no one.
  return opts.dry_run ? run() : withUndoLock(journal, run);
}

/**
 * The change an undo of `change_id` (omitted: the last one not undone) takes back, or the error
 * saying why there is none to undo. Reviews call it once and carry its id to the run.
 */
export async function resolveChange(
  context: ToolContext,
  journal: ChangeJournal,
  opts: { change_id?: string; force?: boolean } = {},
): Promise<ChangeEntry> {
  return chooseChange(context, await undoTail(context, journal, opts), opts, journal);
}

async function chooseChange(
  context: ToolContext,
  entries: readonly ChangeEntry[],
  opts: { change_id?: string; force?: boolean },
  journal?: ChangeJournal,
): Promise<ChangeEntry> {
  const account = await context.client.connect();
  const { username } = account;
  const mine = entriesOf(entries, account);
  const entry = opts.change_id === undefined ? lastUndoable(mine) : mine.find((e) => e.change_id === opts.change_id);
  if (!entry) {
    throw opts.change_id === undefined
      ? nothingToUndo(username, mine, 'tool')
      : new ToolError('change_not_found', `No change ${opts.change_id} made as ${username} in the journal.`, {
          hint: 'list-changes shows the change ids; only the account that made a change can undo it.',
        });
  }
  if (!entry.reversible) {
    // "Undo the last change" meeting one no undo can take back: point to the most recent one
    // that can (#36), by id, rather than stop there. It is not undone in its place: a person
    // who said "the last" may not mean an older one.
    const other =
      opts.change_id === undefined && journal ? await lastReversible(journal, await context.client.connect(), siteOf(context)) : undefined;
    const why = `Change ${entry.change_id} (${entry.summary}) cannot be undone: ${entry.why_not ?? 'not reversible'}.`;
    if (!other) throw new ToolError('change_not_reversible', why, { hint: 'list-changes shows what is recorded.' });
    throw new ToolError(
      'change_not_reversible',
      `${why} The most recent change that can be undone is ${other.change_id} (${other.tool}: ${other.summary}).`,
      {
        hint: `To undo that one, give its id: change_id "${other.change_id}" (cms-admin undo ${other.change_id}; /undo ${other.change_id} in the chat or tool shell).`,
        details: { undoable_change_id: other.change_id },
      },
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
  return entry;
}

/** What an undo would write, from the engine's dry run: the objects now and as it would leave them. */
export interface UndoPlan {
  entry: ChangeEntry;
  report: UndoReport;
  /** The site now, and as the undo would leave it (conflicts left as they are), keyed by today's ids. */
  now: UndoState;
  after: UndoState;
}

/** The dry run of undoing one change, with the states a question is built from (never the entry's summary). */
export async function planUndo(
  context: ToolContext,
  journal: ChangeJournal,
  opts: { change_id?: string; force?: boolean } = {},
): Promise<UndoPlan> {
  const entries = await undoTail(context, journal, opts);
  const entry = await chooseChange(context, entries, opts, journal);
  const out = await restoreEntry(context, entries, entry, { ...opts, dry_run: true });
  const report = undoReport(entry, entry.before as UndoState, out, true);
  return { entry, report, now: out.current, after: out.result };
}

/** The last `n` changes not undone yet, newest first (those that cannot be undone included). */
export async function lastChanges(context: ToolContext, journal: ChangeJournal, n: number): Promise<ChangeEntry[]> {
  const entries = await undoTail(context, journal, { last: n });
  return entriesOf(entries, await context.client.connect())
    .filter((e) => !e.undoes && !isUndone(entries, e))
    .slice(-n)
    .reverse();
}

/** The last `n` changes not undone yet, newest first; one that cannot be undone is skipped and said. */
export async function undoLast(
  context: ToolContext,
  journal: ChangeJournal,
  n: number,
  opts: UndoOptions = {},
): Promise<UndoReport[]> {
  const run = async () => undoChanges(context, journal, await lastChanges(context, journal, n), opts);
  return opts.dry_run ? run() : withUndoLock(journal, run);
}

/**
 * Undoes these changes, in this order (the ones a question listed): one that cannot be undone,
 * or that an undo running at the same time took back already, is skipped and said.
 */
export async function undoListed(
  context: ToolContext,
  journal: ChangeJournal,
  chosen: readonly ChangeEntry[],
  opts: UndoOptions = {},
): Promise<UndoReport[]> {
  return withUndoLock(journal, () => undoChanges(context, journal, chosen, opts));
}

async function undoChanges(
  context: ToolContext,
  journal: ChangeJournal,
  chosen: readonly ChangeEntry[],
  opts: UndoOptions,
): Promise<UndoReport[]> {
  const reports: UndoReport[] = [];
  const skip = (entry: ChangeEntry, why: string): UndoReport => ({
    change_id: entry.change_id,
    restored: [],
    conflicts: [],
    skipped: [`${entry.summary}: ${why}`],
    // A dry run says so here too (undo --last N --dry-run printed "restored nothing").
    ...(opts.dry_run ? { dry_run: true as const } : {}),
  });
  for (const entry of chosen) {
    if (!entry.reversible) {
      reports.push(skip(entry, `cannot be undone (${entry.why_not ?? 'not reversible'})`));
      continue;
    }
    // Later undos add id maps (recreated terms) that older entries need: read the journal again.
    const entries = await undoTail(context, journal, { change_id: entry.change_id });
    const undo = undoneBy(entries, entry.change_id);
    if (undo && !undo.incomplete && !opts.force) {
      reports.push(skip(entry, `already undone by ${undo.change_id}`));
      continue;
    }
    reports.push(await reverse(context, entries, entry, opts));
  }
  return reports;
}

/**
 * An entry whose write may or may not have happened (issue #47): an intent a killed process
 * never completed (`pending`), or a call whose answer and read-back were both lost (`unknown`).
 * What it may have done is read from the site now, over what it was to touch (`scope`): the
 * undo puts back the state before wherever the site differs from it, and its question shows
 * exactly that. An intent still being made by a live process is not touched.
 */
async function settle(context: ToolContext, entry: ChangeEntry): Promise<ChangeEntry> {
  if (entry.status !== 'pending' && entry.status !== 'unknown') return entry;
  if (stillRunning(entry))
    throw new ToolError('change_in_progress', `Change ${entry.change_id} (${entry.tool}) is still being made (process ${entry.pid}); it can be undone once it has finished.`, {
      hint: 'cms-admin changes / list-changes show it when it completes.',
    });
  let scope = (entry.scope ?? {}) as UndoScope;
  const before = structuredClone(entry.before ?? {}) as UndoState;
  // A create: what goes by its name now and did not before is what it made.
  if (scope.locate) {
    const now = await locateCreated(context.client, scope.taxonomy, scope.locate);
    const made = (key: 'terms' | 'users') => (now[key] ?? []).filter((id) => !(scope.locate?.existed?.[key] ?? []).includes(id));
    for (const id of made('terms')) put(before, 'terms', id, null);
    for (const id of made('users')) put(before, 'users', id, null);
    scope = { ...scope, terms: [...(scope.terms ?? []), ...made('terms')], users: [...(scope.users ?? []), ...made('users')] };
  }
  const now = await readState(context.client, scope);
  if (before.trashed) {
    const left = now.trashed ?? {};
    before.trashed = Object.fromEntries(Object.entries(before.trashed).filter(([id]) => !(id in left)));
    delete now.trashed;
  }
  return { ...entry, before, after: now };
}

/**
 * The one rule (README, docs/undo.md, `changes`, `undo`, `/undo`, undo-change): "the last
 * change" and `--last N` are changes that are not undos; an undo is itself undone (a redo) only
 * by its id. When the latest is such an undo, the error names it and how to redo it, in the
 * words of the surface: CLI commands on the CLI, tools for the model (#52.9).
 */
export function nothingToUndo(username: string, mine: readonly ChangeEntry[], surface: 'cli' | 'tool'): ToolError {
  const redo = mine.filter((e) => e.undoes && e.reversible && !isUndone(mine, e)).at(-1);
  const list = surface === 'cli' ? '`cms-admin changes` lists what is recorded' : 'list-changes shows what is recorded';
  const again = redo && (surface === 'cli' ? `cms-admin undo ${redo.change_id}` : `undo-change with change_id "${redo.change_id}"`);
  return new ToolError(
    'nothing_to_undo',
    `No change made as ${username} in the journal is left to undo${redo ? ` (the latest, ${redo.change_id}, is an undo: an undo is redone only by its id)` : ''}.`,
    {
      hint: redo ? `To redo it: ${again}. ${list}.` : `${list}.`,
      ...(redo ? { details: { redo_change_id: redo.change_id } } : {}),
    },
  );
}

function lastUndoable(entries: readonly ChangeEntry[]): ChangeEntry | undefined {
  return entries.filter((e) => !e.undoes && !isUndone(entries, e)).at(-1);
}

/** The engine's run for one entry, ids in today's ids (a dry run: what it would write, in `result`). */
async function restoreEntry(context: ToolContext, entries: readonly ChangeEntry[], entry: ChangeEntry, opts: UndoOptions) {
  const resolve = idResolver(entries.slice(entries.indexOf(entry) + 1));
  const settled = await settle(context, entry);
  const expected = mapState(settled.after as UndoState, resolve);
  const target = mapState(settled.before as UndoState, resolve);
  return restoreState(context, expected, target, { force: opts.force, dryRun: opts.dry_run === true });
}

async function reverse(
  context: ToolContext,
  entries: readonly ChangeEntry[],
  entry: ChangeEntry,
  opts: UndoOptions,
): Promise<UndoReport> {
  const dryRun = opts.dry_run === true;
  const out = await restoreEntry(context, entries, entry, opts);
  const report = undoReport(entry, entry.before as UndoState, out, dryRun);
  if (dryRun) return report;
  // Nothing restored, nothing found already restored, something left: the change still stands.
  // (A change that changed nothing — a removal from posts that did not have the term — has
  // nothing to restore: its undo is journalled, so it counts as undone.)
  if (!out.restored.length && !out.skipped.length && out.conflicts.length) return report;
  const undoEntry = undoEntryOf(entry, out, opts, await userName(context));
  const failed = await appendEntry(context, undoEntry, []);
  // A fault, not someone's edit: the undo ran but is not recorded; running it again records it.
  if (failed) report.conflicts.push({ item: 'journal', reason: failed, failed: true });
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
