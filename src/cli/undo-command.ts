import { resolveCall } from '../envelope.js';
import type { Approver } from '../tools/approval.js';
import { undoChangeTool } from '../tools/changes/undo-change.js';
import { undoLastCall } from '../tools/changes/undo-last.js';
import type { ToolContext, ToolFilter } from '../tools/index.js';
import { ToolError } from '../tools/tool-error.js';
import { describeUndo, undoWithApproval } from '../undo/approve.js';
import type { UndoReport } from '../undo/undo.js';

/**
 * `/undo`, `/undo N`, `/undo ID` in the chat and the tool shell. Bare: the `undo-change` call for
 * the last change. With N or an id: the same function as the CLI's `undo --last N` / `undo ID`
 * (undo/approve.ts), asked of the session's approver. A session whose filter leaves undo-change
 * out (`--read-only`, `--allow`) cannot undo either way.
 */
export async function slashUndo(
  context: ToolContext,
  filter: ToolFilter,
  approver: Approver,
  arg = '',
): Promise<string> {
  if (!arg) {
    const outcome = await undoLastCall(context, filter, approver);
    return outcome.ok ? describeUndo(outcome.result as UndoReport) : `Not undone: ${outcome.error.message}`;
  }
  const allowed = resolveCall({ tool: undoChangeTool.name, params: {} }, filter);
  if (!allowed.ok) return `Not undone: ${allowed.error.message}`;
  if (!context.journal) return 'Not undone: the change journal is off (--journal off / CMS_JOURNAL=off).';
  const last = /^\d+$/.test(arg) ? Number(arg) : undefined;
  if (last === 0) return 'Not undone: /undo N takes a number ≥ 1 (or a change id from /undo with list-changes).';
  try {
    const outcome = await undoWithApproval(context, context.journal, approver, last ? { last } : { change_id: arg });
    if ('refused' in outcome) return `Not undone: ${outcome.refused}`;
    if (!outcome.reports.length) return 'Nothing to undo.';
    return outcome.reports
      .map((r) => `${describeUndo(r)}${r.undo_change_id ? ` (as ${r.undo_change_id})` : ''}`)
      .join('\n');
  } catch (err) {
    if (err instanceof ToolError) return `Not undone: ${err.message}${err.hint ? `\n  hint: ${err.hint}` : ''}`;
    throw err;
  }
}

/** `/undo 3` → '3'; `/undo` → ''; anything else that is not /undo → undefined. */
export function undoArg(line: string): string | undefined {
  const match = /^\/undo(?:\s+(\S+))?\s*$/.exec(line);
  return match ? (match[1] ?? '') : undefined;
}
