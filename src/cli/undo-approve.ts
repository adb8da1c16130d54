import { type Approver, approvalRequest } from '../call/approval.js';
import { UNDO_CHANGE } from '../changes/undo-change.js';
import { describePlan, undoLabel } from '../changes/undo-review.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { ChangeEntry, ChangeJournal } from '../undo/journal.js';
import { lastChanges, planUndo, resolveChange, type UndoReport, undoListed } from '../undo/undo.js';

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
): Promise<{ reports: UndoReport[]; question: string[] } | { refused: string }> {
  const chosen: ChangeEntry[] =
    opts.last !== undefined
      ? await lastChanges(context, journal, opts.last)
      : [await resolveChange(context, journal, { change_id: opts.change_id, force: opts.force })];
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
  if (opts.dry_run) return { reports: plans, question };
  const args = { change_ids: chosen.map((e) => e.change_id), ...(opts.force ? { force: true } : {}) };
  const decision = await approver(approvalRequest('undo', args, question.join('\n')));
  if (!decision.approved) return { refused: decision.reason };
  return { reports: await undoListed(context, journal, chosen, { force: opts.force, recordAs: UNDO_CHANGE }), question };
}

/** One line: what an undo restored, and what it left (why, and that a rerun finishes a cut-short one). */
export function describeUndo(report: UndoReport): string {
  const list = (items: string[]) =>
    items.slice(0, 8).join(', ') + (items.length > 8 ? ` and ${items.length - 8} more` : '');
  const verb = report.dry_run ? 'restore' : 'restored';
  const parts = [`undo ${report.change_id}: ${verb} ${report.restored.length ? list(report.restored) : 'nothing'}`];
  const said = (items: typeof report.conflicts) => list(items.map((c) => `${c.item}: ${c.reason}`));
  // A write that failed is a fault (the site answered 500, a request dropped), not someone's edit.
  const failed = report.conflicts.filter((c) => c.failed);
  const changed = report.conflicts.filter((c) => !c.failed);
  if (changed.length) parts.push(`left ${changed.length} changed since (${said(changed)})`);
  if (failed.length) parts.push(`${failed.length} write(s) failed (${said(failed)})`);
  if (!report.dry_run && (failed.length || report.incomplete))
    parts.push(
      failed.length
        ? `incomplete: undoing ${report.change_id} again finishes it`
        : `incomplete: undoing ${report.change_id} again with force restores what changed since`,
    );
  if (!report.restored.length && report.skipped.length) parts.push(`skipped: ${list(report.skipped)}`);
  // What no undo gives back (a deleted account), and what came back besides (posts out of the Trash).
  if (report.notes?.length) parts.push(...report.notes);
  return parts.join('; ');
}
