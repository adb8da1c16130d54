import { maskSecretParams } from '../redact.js';

export interface ApprovalRequest {
  tool: string;
  /** Arguments as the model sent them, secrets masked: safe to show. */
  args: Record<string, unknown>;
  /** What the call will change, read from the site: "give alice the role administrator (was: editor)". */
  summary: string;
}

export type ApprovalDecision = { approved: true } | { approved: false; reason: string };

/** Decides whether one destructive tool call may run. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision>;

export const approveAll: Approver = async () => ({ approved: true });

/** For runs without a terminal and without --yes: destructive calls are refused, with a reason. */
export const refuseAll: Approver = async ({ tool }) => ({
  approved: false,
  reason: `${tool} needs approval, and no one can approve it here (no terminal). Run the chat in a terminal, or pass --yes to approve such calls.`,
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

export function approvalRequest(tool: string, args: unknown, summary: string): ApprovalRequest {
  return { tool, args: (maskSecretParams(args) ?? {}) as Record<string, unknown>, summary };
}
