import type { Approver } from '../tools/approval.js';
import type { ToolContext } from '../tools/define-tool.js';
import { describeUndo, undoWithApproval } from '../undo/approve.js';

/** `/undo` in the chat and the tool shell: the last change taken back once the approver agrees. */
export async function slashUndo(context: ToolContext, approver: Approver): Promise<string> {
  if (!context.journal) return 'The change journal is off (--journal off): nothing can be undone.';
  try {
    const outcome = await undoWithApproval(context, context.journal, approver, {});
    return 'refused' in outcome ? `Not undone: ${outcome.refused}` : outcome.reports.map(describeUndo).join('\n');
  } catch (err) {
    return `Not undone: ${(err as Error).message}`;
  }
}
