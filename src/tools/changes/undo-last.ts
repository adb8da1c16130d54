import { invoke, resolveCall } from '../../envelope.js';
import { type Approver, decideCall } from '../approval.js';
import type { ToolContext } from '../define-tool.js';
import type { ToolOutcome } from '../run-tool.js';
import type { ToolFilter } from '../select.js';
import { undoChangeTool } from './undo-change.js';

/**
 * `/undo` in the chat and the tool shell: the `undo-change` call for the last change, through
 * the session's filter (a `--read-only` or `--allow` session cannot undo), its review and the
 * approver, exactly as if the model had made the call.
 */
export async function undoLastCall(context: ToolContext, filter: ToolFilter, approver: Approver): Promise<ToolOutcome> {
  const envelope = { tool: undoChangeTool.name, params: {} };
  const call = resolveCall(envelope, filter);
  if (!call.ok) return call;
  const decision = await decideCall(call.tool, context, call.params, approver);
  if (!decision.ok) return decision;
  // The change the question named (its review resolved "the last change" once), not a second pick.
  return invoke({ ...envelope, params: decision.params ?? envelope.params }, context, filter);
}
