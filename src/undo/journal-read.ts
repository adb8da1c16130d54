import type { ToolContext } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import { type DamagedLine, describeDamage, isDamaged, type JournalLine } from './journal-file.js';
import { type ChangeEntry, type ChangeJournal, type JournalAccount, madeBy } from './journal.js';
import { siteKey } from './site-key.js';
import { stillRunning } from './change-store.js';

/**
 * Reading the latest of a journal (issue #34): newest first, only as far as needed, and never
 * past a damaged line without saying so.
 */

/**
 * The journal's items newest first (damaged lines included), from `latest()` or `entries()`.
 * With `site` (site-key.ts), entries of another site are left out: a change store's view is
 * already one site's, and a journal of an app's own that several sites share is read the same
 * way, so no undo ever meets another site's change (issue #47).
 */
export async function* latestOf(journal: ChangeJournal, site?: string): AsyncGenerator<JournalLine<ChangeEntry>> {
  const other = (item: JournalLine<ChangeEntry>) => site !== undefined && !isDamaged(item) && item.site !== undefined && item.site !== site;
  if (journal.latest) {
    for await (const item of journal.latest()) if (!other(item)) yield item;
    return;
  }
  const all = await journal.entries();
  for (let i = all.length - 1; i >= 0; i--) if (!other(all[i] as ChangeEntry)) yield all[i] as ChangeEntry;
}

/** The site a context's journal reads (site-key.ts). */
export function siteOf(context: ToolContext): string {
  return siteKey(context.client.siteUrl);
}

/** The journal met a damaged line where the change an undo would take back may lie. */
export function damagedJournalError(where: string): ToolError {
  return new ToolError(
    'journal_damaged',
    `The change journal is damaged where the latest changes are: ${where}, so which change is the last is not known, and undo will not guess.`,
    {
      hint: 'Give the change id to undo (cms-admin changes / list-changes lists them), or set the damaged line aside with `cms-admin changes --repair`.',
    },
  );
}

/**
 * The end of the journal an undo needs, oldest first: read from the end until the entry
 * `change_id` is met, or the last `last` changes of `account` not undone yet (and every entry
 * after them: their undos and id maps). Without a change id, a damaged line met first refuses
 * (it may be the change meant); with one, damage is passed over. The whole journal when the
 * wanted entries are not all there.
 */
export async function journalTail(
  journal: ChangeJournal,
  account: JournalAccount,
  want: { change_id?: string; last?: number },
  site?: string,
): Promise<ChangeEntry[]> {
  const tail: ChangeEntry[] = [];
  const undone = new UndoneIndex();
  let found = 0;
  for await (const item of latestOf(journal, site)) {
    if (isDamaged(item)) {
      if (want.change_id === undefined) throw damagedJournalError(await nameDamage(journal, item));
      continue;
    }
    tail.push(item);
    undone.add(item);
    if (want.change_id !== undefined ? item.change_id === want.change_id : madeBy(item, account) && !item.undoes && !undone.isUndone(item) && ++found >= (want.last ?? 1))
      break;
  }
  return tail.reverse();
}

/**
 * The journal's end an undo reads (`journalTail` for the connected account): from the entry
 * `change_id` on, or from the last `last` (default 1) changes not undone yet.
 */
export async function undoTail(
  context: ToolContext,
  journal: ChangeJournal,
  want: { change_id?: string; last?: number },
): Promise<ChangeEntry[]> {
  return journalTail(journal, await context.client.connect(), { change_id: want.change_id, last: want.last }, siteOf(context));
}

/** Entries read back at most when looking for the most recent change that can be undone. */
const POINTER_SCAN = 10_000;

/** The account's most recent change an undo can take back (reversible, not undone, not an undo), within POINTER_SCAN entries. */
export async function lastReversible(journal: ChangeJournal, account: JournalAccount, site?: string): Promise<ChangeEntry | undefined> {
  const undone = new UndoneIndex();
  let read = 0;
  for await (const item of latestOf(journal, site)) {
    if (++read > POINTER_SCAN) return undefined;
    // Only a pointer: a damaged line is passed over (the undo of the id named reads it again).
    if (isDamaged(item)) continue;
    undone.add(item);
    if (madeBy(item, account) && !item.undoes && item.reversible && !undone.isUndone(item)) return item;
  }
  return undefined;
}

/** "line 812 of FILE is damaged (cut short)" (a journal without a file: where it is, counted from the end). */
export async function nameDamage(journal: ChangeJournal, damage: DamagedLine): Promise<string> {
  return journal.path ? describeDamage(journal.path, damage) : `an entry is damaged (${damage.why})`;
}

/**
 * "Undone by" links, fed newest first (as the journal is read from its end): every undo of an
 * entry lies after it, so it is known by the time the entry is met.
 */
export class UndoneIndex {
  readonly #undos = new Map<string, ChangeEntry[]>();

  add(entry: ChangeEntry): void {
    if (!entry.undoes) return;
    // Fed newest first: an older undo goes in front, so each list is oldest first.
    const list = this.#undos.get(entry.undoes) ?? [];
    list.unshift(entry);
    this.#undos.set(entry.undoes, list);
  }

  /** The latest undo of `changeId` still in force (not itself undone by a redo). */
  undoneBy(changeId: string, depth = 0): ChangeEntry | undefined {
    if (depth > 1000) return undefined;
    const undos = this.#undos.get(changeId) ?? [];
    for (let i = undos.length - 1; i >= 0; i--) {
      const undo = undos[i] as ChangeEntry;
      if (!this.undoneBy(undo.change_id, depth + 1)) return undo;
    }
    return undefined;
  }

  isUndone(entry: ChangeEntry): boolean {
    const undo = this.undoneBy(entry.change_id);
    return Boolean(undo && !undo.incomplete);
  }
}

/** A change begun and not completed: still being made, or left by a process that stopped (it may have been applied). */
export interface UnfinishedChange {
  entry: ChangeEntry;
  running: boolean;
}

/**
 * The connected account's changes of `tool` begun since `sinceMs` and not completed, newest
 * first (at most `max`): what a retried call may already have done (issue #49: an approval
 * retried on another replica after the first died mid-call is refused as used; its answer
 * names these, so the person checks and undoes rather than writing again).
 */
export async function unfinishedChanges(context: ToolContext, tool: string, sinceMs: number, max = 3): Promise<UnfinishedChange[]> {
  const journal = context.journal;
  if (!journal) return [];
  const account = await context.client.connect();
  const out: UnfinishedChange[] = [];
  let read = 0;
  for await (const item of latestOf(journal, siteOf(context))) {
    if (isDamaged(item)) continue;
    if (++read > 1000 || Date.parse(item.at) < sinceMs) break;
    if (item.tool !== tool || !madeBy(item, account)) continue;
    if (item.status === 'unknown' || item.status === 'pending') out.push({ entry: item, running: stillRunning(item) });
    if (out.length >= max) break;
  }
  return out;
}
