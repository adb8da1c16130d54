import { type Approver, approvalRequest } from '../tools/approval.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { ChangeJournal } from './journal.js';
import { type UndoReport, undoChange, undoLast } from './undo.js';

/**
 * An undo a person approves first (the CLI's `undo`, the chat's `/undo`): a dry run says what
 * would be restored, the approver asks, then it runs. Returns the reports, or why it did not run.
 */
export async function undoWithApproval(
  context: ToolContext,
  journal: ChangeJournal,
  approver: Approver,
  opts: { change_id?: string; last?: number; force?: boolean; dry_run?: boolean },
): Promise<{ reports: UndoReport[] } | { refused: string }> {
  const run = (dry: boolean) =>
    opts.last !== undefined
      ? undoLast(context, journal, opts.last, { force: opts.force, dry_run: dry })
      : undoChange(context, journal, { change_id: opts.change_id, force: opts.force, dry_run: dry }).then((r) => [r]);
  const plans = await run(true);
  if (opts.dry_run) return { reports: plans };
  const summary = plans.map(describeUndo).join('\n');
  const decision = await approver(approvalRequest('undo', { ...opts }, summary));
  if (!decision.approved) return { refused: decision.reason };
  return { reports: await run(false) };
}

/** One line: what an undo restores (or would), and what it leaves. */
export function describeUndo(report: UndoReport): string {
  const list = (items: string[]) =>
    items.slice(0, 8).join(', ') + (items.length > 8 ? ` and ${items.length - 8} more` : '');
  const verb = report.dry_run ? 'restore' : 'restored';
  const parts = [`undo ${report.change_id}: ${verb} ${report.restored.length ? list(report.restored) : 'nothing'}`];
  if (report.conflicts.length)
    parts.push(
      `left ${report.conflicts.length} changed since (${list(report.conflicts.map((c) => `${c.item}: ${c.reason}`))})`,
    );
  if (!report.restored.length && report.skipped.length) parts.push(`skipped: ${list(report.skipped)}`);
  // What no undo gives back (a deleted account), and what came back besides (posts out of the Trash).
  if (report.notes?.length) parts.push(...report.notes);
  return parts.join('; ');
}
