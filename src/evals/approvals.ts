import type { ApprovalRequest, Approver } from '../agent/approvals.js';
import type { Approvals } from './case-schema.js';

export interface ApprovalLog {
  tool: string;
  args: Record<string, unknown>;
  approved: boolean;
  summary?: string;
}

/**
 * A case's approvals as the runner's Approver: approve every destructive call, deny every one,
 * or deny only the named tools. Each request (args already masked by the runner) is logged.
 */
export function caseApprover(approvals: Approvals, log: ApprovalLog[]): Approver {
  return async (request: ApprovalRequest) => {
    const approved =
      approvals === 'approve' || (typeof approvals === 'object' && !approvals.deny.includes(request.tool));
    log.push({ tool: request.tool, args: request.args, summary: request.summary, approved });
    return approved ? { approved: true } : { approved: false, reason: 'The site owner declined this change.' };
  };
}
