import { type Approver, decideCall, invoke, resolveCall, type ToolContext, type ToolFilter } from '../call/index.js';
import { UNDO_CHANGE } from '../changes/undo-change.js';
import type { UndoReport } from '../undo/undo.js';
import { describeUndo } from './undo-approve.js';

/**
 * `/undo` in the chat and the tool shell: the `undo-change` call for the last change, through
 * the call pipeline as if the model had made it — the session's filter (a `--read-only` or
 * `--allow` session cannot undo), its review and the approver — then the change the question
 * named (its review resolved "the last change" once into a change_id), not a second pick.
 */
export async function slashUndo(context: ToolContext, filter: ToolFilter, approver: Approver): Promise<string> {
  const envelope = { tool: UNDO_CHANGE, params: {} };
  const call = resolveCall(envelope, filter);
  if (!call.ok) return `Not undone: ${call.error.message}`;
  const decision = await decideCall(call.tool, context, call.params, approver);
  if (!decision.ok) return `Not undone: ${decision.error.message}`;
  const outcome = await invoke({ ...envelope, params: decision.params ?? envelope.params }, context, filter);
  return outcome.ok ? describeUndo(outcome.result as UndoReport) : `Not undone: ${outcome.error.message}`;
}
