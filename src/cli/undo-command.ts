import type { Approver } from '../tools/approval.js';
import type { ToolContext, ToolFilter } from '../tools/index.js';
import { undoLastCall } from '../tools/changes/undo-last.js';
import { describeUndo } from '../undo/approve.js';
import type { UndoReport } from '../undo/undo.js';

/** `/undo` in the chat and the tool shell: the last change taken back once the approver agrees. */
export async function slashUndo(context: ToolContext, filter: ToolFilter, approver: Approver): Promise<string> {
  const outcome = await undoLastCall(context, filter, approver);
  return outcome.ok ? describeUndo(outcome.result as UndoReport) : `Not undone: ${outcome.error.message}`;
}
