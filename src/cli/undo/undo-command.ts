import { type Approver, checkCall, decideCall, resolveCall, runTool, type ToolContext, type ToolFilter } from '../../call/index.js';
import { UNDO_CHANGE } from '../../changes/undo-change.js';
import { ToolError } from '../../tools/tool-error.js';
import type { UndoReport } from '../../undo/undo.js';
import { describeUndo, undoWithApproval } from './undo-approve.js';

/**
 * `/undo`, `/undo N`, `/undo ID` in the chat and the tool shell. Bare: the `undo-change` call for
 * the last change, through the call pipeline as if the model had made it — the session's filter
 * (a `--read-only` or `--allow` session cannot undo), its review and the approver — then the
 * change the question named (its review resolved "the last change" once into a change_id). With
 * N or an id: the same function as the CLI's `undo --last N` / `undo ID` (undo-approve.ts), asked
 * of the session's approver, where the filter keeps undo-change.
 */
export async function slashUndo(
  context: ToolContext,
  filter: ToolFilter,
  approver: Approver,
  arg = '',
): Promise<string> {
  const envelope = { tool: UNDO_CHANGE, params: {} };
  // The session's filter first: a `--read-only` or `--allow` session cannot undo, with N or an id either.
  const allowed = checkCall(envelope, filter);
  if (!allowed.ok) return `Not undone: ${allowed.error.message}`;
  if (arg) return undoSome(context, approver, arg);
  const call = await resolveCall(envelope, context, filter);
  if (!call.ok) return `Not undone: ${call.error.message}`;
  const decision = await decideCall(call.call, approver);
  if (!decision.ok) return `Not undone: ${decision.error.message}`;
  // Exactly the change the question named (its review resolved "the last change" once).
  const outcome = await runTool(decision.call);
  return outcome.ok ? describeUndo(outcome.result as UndoReport) : `Not undone: ${outcome.error.message}`;
}

async function undoSome(context: ToolContext, approver: Approver, arg: string): Promise<string> {
  if (!context.journal) return 'Not undone: the change journal is off (--journal off / CMS_JOURNAL=off).';
  const last = /^\d+$/.test(arg) ? Number(arg) : undefined;
  if (last === 0) return 'Not undone: /undo N takes a number ≥ 1, /undo ID a change id (list-changes shows them).';
  try {
    const outcome = await undoWithApproval(context, context.journal, approver, last ? { last } : { change_id: arg });
    if ('refused' in outcome) return `Not undone: ${outcome.refused}`;
    if (!outcome.reports.length) return 'Nothing to undo.';
    // `/undo N` ends as `undo --last N` does: how many of the N it undid, each it did not and why.
    return [
      ...outcome.reports.map((r) => `${describeUndo(r)}${r.undo_change_id ? ` (as ${r.undo_change_id})` : ''}`),
      ...(outcome.tally ?? []),
    ].join('\n');
  } catch (err) {
    if (err instanceof ToolError) return `Not undone: ${err.message}${err.hint ? `\n  hint: ${err.hint}` : ''}`;
    throw err;
  }
}

/** `/undo 3` → '3'; `/undo` → ''; anything else → undefined. */
export function undoArg(line: string): string | undefined {
  const match = /^\/undo(?:\s+(\S+))?\s*$/.exec(line);
  return match ? (match[1] ?? '') : undefined;
}
