import { type Approver, approvalRequest } from '../../call/index.js';
import { describeUndo } from '../../undo/undo-words.js';
import { UNDO_CHANGE } from '../../changes/undo-change.js';
import { describePlan, undoLabel } from '../../changes/undo-review.js';
import type { ToolContext } from '../../tools/define-tool.js';
import { ToolError } from '../../tools/tool-error.js';
import { type ChangeEntry, type ChangeJournal, entriesOf } from '../../undo/journal.js';
import { lastChanges, nothingToUndo, planUndo, resolveChange, type UndoReport, undoListed } from '../../undo/undo.js';

/**
 * An undo a person approves first (the CLI's `undo`): the changes are chosen once, the engine's
 * dry run says what each would write, the question says it as the forward tools would
 * (tools/changes/undo-review.ts), then exactly those changes are undone (one undo of the
 * journal at a time). A dry run prints the same lines. Returns the reports and those lines, or
 * why it did not run.
 */
export async function undoWithApproval(
  context: ToolContext,
  journal: ChangeJournal,
  approver: Approver,
  opts: { change_id?: string; last?: number; force?: boolean; dry_run?: boolean },
): Promise<UndoOutcome | { refused: string }> {
  const chosen: ChangeEntry[] =
    opts.last !== undefined
      ? await lastChanges(context, journal, opts.last)
      : [await cliWords(() => resolveChange(context, journal, { change_id: opts.change_id, force: opts.force }), context, journal)];
  if (!chosen.length) {
    const account = await context.client.connect();
    throw nothingToUndo(account.username, entriesOf(await journal.entries(), account), 'cli');
  }
  const plans: UndoReport[] = [];
  const question: string[] = [];
  for (const entry of chosen) {
    if (!entry.reversible) {
      const why = `cannot be undone (${entry.why_not ?? 'not reversible'})`;
      plans.push({ change_id: entry.change_id, dry_run: true, restored: [], conflicts: [], skipped: [`${entry.summary}: ${why}`] });
      // Nothing runs for it; its reason comes from the file, so only as a note in quotes.
      question.push(`undo ${undoLabel(entry)}: restore nothing; it cannot be undone (${JSON.stringify(String(entry.why_not ?? 'not reversible').slice(0, 200))})`);
      continue;
    }
    const plan = await planUndo(context, journal, { change_id: entry.change_id, force: opts.force });
    plans.push(plan.report);
    question.push(await describePlan(context, plan));
  }
  const outcome = (reports: UndoReport[], dryRun: boolean): UndoOutcome => ({
    reports,
    question,
    ...(opts.last !== undefined ? tally(opts.last, chosen, reports, dryRun) : { complete: !reports.some((r) => r.conflicts.length) }),
  });
  if (opts.dry_run) return outcome(plans, true);
  const args = { change_ids: chosen.map((e) => e.change_id), ...(opts.force ? { force: true } : {}) };
  const decision = await approver(approvalRequest('undo', args, question.join('\n')));
  if (!decision.approved) return { refused: decision.reason };
  return outcome(await undoListed(context, journal, chosen, { force: opts.force, recordAs: UNDO_CHANGE }), false);
}

export interface UndoOutcome {
  reports: UndoReport[];
  /** The question's lines (what a dry run prints). */
  question: string[];
  /** Everything asked for was undone (would be, in a dry run): the CLI exits 0 only then. */
  complete: boolean;
  /** `--last N`: "undid 2 of the last 3 changes", then each change not undone and why. */
  tally?: string[];
}

/**
 * `--last N` counts the last N changes, those no undo can take back included (#36): how many
 * of them it undid, and each one it did not, with why. Complete only if it undid all of them.
 */
function tally(asked: number, chosen: readonly ChangeEntry[], reports: readonly UndoReport[], dryRun: boolean) {
  const notDone: string[] = [];
  chosen.forEach((entry, i) => {
    const report = reports[i];
    const label = undoLabel(entry);
    // The reason comes from the journal file: printed as text, one line, bounded.
    const why = String(entry.why_not ?? 'not reversible').replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
    if (!entry.reversible) notDone.push(`${label} cannot be undone: ${why}`);
    else if (!report || (!dryRun && !report.undo_change_id)) notDone.push(`${label} was not undone: ${report ? describeUndo(report) : 'no report'}`);
    else if (report.conflicts.length) notDone.push(`${label} ${dryRun ? 'would leave' : 'left'} ${report.conflicts.length} item(s) as they are (changed since; see above)`);
  });
  const done = chosen.length - notDone.length;
  const only = chosen.length < asked ? ` (only ${chosen.length} recorded)` : '';
  const head = `${dryRun ? 'would undo' : 'undid'} ${done} of the last ${asked} changes${only}${notDone.length ? '; not undone:' : ''}`;
  return { tally: [head, ...notDone.map((line) => `  ${line}`)], complete: notDone.length === 0 };
}

/** One line: what an undo did and left (src/undo/undo-words.ts, the model's words too). */
export { describeUndo };

/** The engine's nothing_to_undo in the CLI's words (`cms-admin undo ID`, not undo-change). */
async function cliWords<T>(run: () => Promise<T>, context: ToolContext, journal: ChangeJournal): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ToolError) || err.code !== 'nothing_to_undo') throw err;
    const account = await context.client.connect();
    throw nothingToUndo(account.username, entriesOf(await journal.entries(), account), 'cli');
  }
}
