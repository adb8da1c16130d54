import type { ApprovalDecision, ApprovalRequest, Approver } from '../call/index.js';

/**
 * How the app answers an approval interrupt: `new Command({ resume: { type: 'approve' } })` or
 * `{ type: 'reject', message }`, one decision of LangChain's humanInTheLoopMiddleware. With
 * several calls waiting (parallel tool calls), resume with a map from each interrupt's id to
 * its decision: `new Command({ resume: { [interrupt.id]: { type: 'approve' } } })`.
 */
export type ApprovalResume = { type: 'approve' } | { type: 'reject'; message?: string };

/** The interrupt's value: the tool, its args (secrets masked), what it would change (read from the site). */
export interface ApprovalInterrupt extends ApprovalRequest {
  type: 'approval';
  /** The decisions the app may resume with. */
  allowed: ['approve', 'reject'];
}

/**
 * Asks with LangGraph's `interrupt()`: the run stops, its state saved by the checkpointer, and
 * the app reads `__interrupt__` (or `getState().tasks[].interrupts`). On resume LangGraph runs
 * the tool again from the start: the site is reviewed again and `interrupt()` returns the app's
 * decision. Works in any process that has the same checkpointer and thread_id.
 * https://docs.langchain.com/oss/javascript/langgraph/interrupts
 */
export const interruptApprover: Approver = async (request) => {
  // Loaded on first use: the main entry loads no LangGraph (test/unit/package-shape.test.ts).
  const { interrupt, isGraphInterrupt } = await import('@langchain/langgraph');
  const value: ApprovalInterrupt = { type: 'approval', ...request, allowed: ['approve', 'reject'] };
  let resume: unknown;
  try {
    resume = interrupt<ApprovalInterrupt, unknown>(value);
  } catch (err) {
    if (isGraphInterrupt(err)) throw err;
    return {
      approved: false,
      unavailable: true,
      reason: `${request.tool} needs approval, and approvals: 'interrupt' cannot pause this run (${(err as Error).message}). Run the agent with a checkpointer (createAgent({ checkpointer })) and a thread_id.`,
    };
  }
  return decisionFrom(resume);
};

/** The app's resume value as a decision; anything but a clear approval is a rejection. */
export function decisionFrom(resume: unknown): ApprovalDecision {
  const { type, message } = (resume ?? {}) as { type?: unknown; message?: unknown };
  if (type === 'approve') return { approved: true };
  if (type === 'reject') return { approved: false, reason: typeof message === 'string' && message ? message : 'Rejected.' };
  return {
    approved: false,
    reason: `The run was resumed with ${JSON.stringify(resume)?.slice(0, 80)}, not { type: 'approve' } or { type: 'reject' }.`,
  };
}
