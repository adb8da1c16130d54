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
  /** 0 for the first question of this call; 1, 2 … when the site changed before the resume and it was asked again. */
  asked: number;
}

/** What a person sees of a question: an approval counts only for the same words (and sites, and args). */
const seen = (v: ApprovalRequest) => JSON.stringify([v.tool, v.args, v.summary, v.sites ?? null]);

/**
 * Asks with LangGraph's `interrupt()`: the run stops, its state saved by the checkpointer, and
 * the app reads `__interrupt__` (or `getState().tasks[].interrupts`). On resume LangGraph runs
 * the tool again from the start: the site is reviewed again and `interrupt()` returns the app's
 * decision. Works in any process that has the same checkpointer and thread_id.
 * https://docs.langchain.com/oss/javascript/langgraph/interrupts
 *
 * The approval was given to the question the app was shown, which the review of the resumed run
 * may no longer say (another change journalled since, so "undo the last change" is another one; a
 * user's roles changed; a fleet site that failed its review now passes). So the resumed run
 * compares its question with the one asked, read back from the checkpointer (this task's pending
 * `__interrupt__` write), and when they differ asks again: a new interrupt, `asked` one higher. A
 * rejection stands whatever the site says now.
 */
export const interruptApprover: Approver = async (request) => {
  // Loaded on first use: the main entry loads no LangGraph (test/unit/package-shape.test.ts).
  const { interrupt, isGraphInterrupt, getConfig } = await import('@langchain/langgraph');
  const last = await lastAsked(getConfig);
  for (let asked = 0; ; asked += 1) {
    const value: ApprovalInterrupt = { type: 'approval', ...request, allowed: ['approve', 'reject'], asked };
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
    const decision = decisionFrom(resume);
    // An answer to an earlier question than the last one asked: that question is out of date.
    if (last && asked < last.asked) continue;
    // Rejected, or approved for what this run would do: decided. (Without the question on record
    // — a checkpointer that keeps no pending writes — the answer is taken as before.)
    if (!decision.approved || !last || seen(last) === seen(value)) return decision;
    // Approved, but for other words than this run's: the next interrupt() asks anew.
  }
};

/** The last approval question this task raised, from the checkpointer's pending writes; undefined on a first run. */
async function lastAsked(getConfig: () => { configurable?: Record<string, unknown> }): Promise<ApprovalInterrupt | undefined> {
  let conf: Record<string, unknown> | undefined;
  try {
    conf = getConfig().configurable;
  } catch {
    return undefined; // not inside a graph: interrupt() says so below
  }
  // LangGraph's own keys for the run's checkpointer and task (what interrupt() itself reads).
  const saver = conf?.__pregel_checkpointer as
    | { getTuple(config: unknown): Promise<{ pendingWrites?: Array<[string, string, unknown]> } | undefined> }
    | undefined;
  const task = conf?.__pregel_task_id;
  if (!saver || typeof task !== 'string') return undefined;
  // The task's namespace is its graph's plus "|tools:<task>": the graph's checkpoint holds the writes
  // ('' for an agent of its own, the outer node's part when the agent runs as a subgraph).
  const ns = String(conf?.checkpoint_ns ?? '').split('|').slice(0, -1).join('|');
  const tuple = await saver.getTuple({ configurable: { thread_id: conf?.thread_id, checkpoint_ns: ns } });
  let found: ApprovalInterrupt | undefined;
  for (const [writer, channel, value] of tuple?.pendingWrites ?? []) {
    if (writer !== task || channel !== '__interrupt__' || !Array.isArray(value)) continue;
    for (const pending of value as Array<{ value?: Partial<ApprovalInterrupt> }>) {
      const v = pending?.value;
      if (v?.type === 'approval' && typeof v.asked === 'number' && (!found || v.asked >= found.asked)) found = v as ApprovalInterrupt;
    }
  }
  return found;
}

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
