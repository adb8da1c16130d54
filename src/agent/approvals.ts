import type { Approver } from '../call/index.js';

export {
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
  approvalRequest,
  approveAll,
} from '../call/index.js';

/** For runs without a terminal and without --yes: destructive calls are refused, with a reason. */
export const refuseAll: Approver = async ({ tool, summary }) => ({
  approved: false,
  reason: `${tool} needs approval (${summary}), and no one can approve it here (no terminal). Run the chat in a terminal, or pass --yes to approve such calls.`,
});

/**
 * Parallel tool calls run at the same time; their approvals must not. Each prompt waits for
 * the one before it, so a person answers one question at a time.
 */
export function serializeApprover(approver: Approver): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const decision = queue.then(() => approver(request));
    queue = decision.catch(() => undefined);
    return decision;
  };
}
