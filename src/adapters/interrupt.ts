import type { ApprovalDecision, ApprovalRequest, Approver } from '../call/index.js';
import { type AskedKey, decisionFor, type Ledger, ledgerOf, type MatchInput, timesAsked } from './interrupt-match.js';

/**
 * How the app answers an approval interrupt: `new Command({ resume: { [interrupt.id]: { type:
 * 'approve' } } })` or `{ type: 'reject', message }`, one decision of LangChain's
 * humanInTheLoopMiddleware, keyed by the id of the interrupt it answers. A bare decision
 * (`new Command({ resume: { type: 'approve' } })`) answers only when one question waits. A
 * decision may also name its call (`tool_call_id`); one that names another call is not taken.
 */
export type ApprovalResume = ({ type: 'approve' } | { type: 'reject'; message?: string }) & { tool_call_id?: string };

/** The interrupt's value: the tool, its args (secrets masked), what it would change (read from the site). */
export interface ApprovalInterrupt extends ApprovalRequest, Ledger {
  type: 'approval';
  /** The decisions the app may resume with. */
  allowed: ['approve', 'reject'];
  /** 0 for the first question of this call; 1, 2 … when the site changed before the resume and it was asked again. */
  asked: number;
  /**
   * The same question in the shape of LangChain's humanInTheLoopMiddleware (HITLRequest), so an
   * app's one review loop answers both: resume with `{ decisions: [{ type: 'approve' }] }` too.
   */
  actionRequests: [{ name: string; args: Record<string, unknown>; description: string }];
  reviewConfigs: [{ actionName: string; allowedDecisions: ['approve', 'reject'] }];
}

/**
 * Asks with LangGraph's `interrupt()`: the run stops, its state saved by the checkpointer, and
 * the app reads `__interrupt__` (or `getState().tasks[].interrupts`). On resume LangGraph runs
 * the tool again from the start: the site is reviewed again, and the call's decision is the
 * answer given to ITS question (interrupt-match.ts): found by the tool-call id and the words,
 * never by the order in which LangGraph hands a task's answers out — a `ToolNode` runs a
 * message's calls in one task, and they ask in the order their reads finish.
 * https://docs.langchain.com/oss/javascript/langgraph/interrupts
 *
 * The approval was given to the question the app was shown, which the review of the resumed run
 * may no longer say (another change journalled since; a user's roles changed; a fleet site that
 * failed its review now passes): then it asks again, `asked` one higher. A rejection stands
 * whatever the site says now. An answer that cannot be tied to its question runs nothing: the
 * call asks again.
 */
export const interruptApprover: Approver = async (request) => {
  // Loaded on first use: the main entry loads no LangGraph (test/unit/package-shape.test.ts).
  const { interrupt, isGraphInterrupt, getConfig } = await import('@langchain/langgraph');
  const { createHash } = await import('node:crypto');
  const keyOf = (v: ApprovalRequest): AskedKey => ({
    call: v.tool_call_id ?? null,
    q: createHash('sha256').update(JSON.stringify([v.tool, v.args, v.summary, v.sites ?? null])).digest('hex').slice(0, 32),
  });
  const step = await readStep(getConfig, keyOf);
  const mine = keyOf(request);
  // From here on nothing awaits: the task's other tools cannot take resume values in between.
  let answers: readonly unknown[];
  try {
    answers = takeAnswers(interrupt, isGraphInterrupt, step.scratchpad);
  } catch (err) {
    return {
      approved: false,
      unavailable: true,
      reason: `${request.tool} needs approval, and approvals: 'interrupt' cannot pause this run (${(err as Error).message}). Run the agent with a checkpointer (createAgent({ checkpointer })) and a thread_id.`,
    };
  }
  const ledger = ledgerOf({ ...step, answers });
  const decided = decisionFor(ledger, answers, mine, decisionFrom);
  if (decided) return decided;
  const value: ApprovalInterrupt = {
    type: 'approval',
    ...request,
    allowed: ['approve', 'reject'],
    asked: timesAsked(ledger, mine),
    actionRequests: [{ name: request.tool, args: request.args, description: request.summary }],
    reviewConfigs: [{ actionName: request.tool, allowedDecisions: ['approve', 'reject'] }],
    slot: answers.length,
    earlier: ledger.slice(0, answers.length),
  };
  // Every answer is taken: this interrupt() finds none and throws, pausing the run with the question.
  interrupt<ApprovalInterrupt, unknown>(value);
  return { approved: false, reason: 'The answer could not be tied to this call’s question.' };
};

type Scratchpad = { resume: unknown[]; nullResume?: unknown };

/**
 * Every resume value the task has, taken through interrupt() (LangGraph records them with the
 * task: the next run finds them) until it has none left and throws for a question — that
 * throw is dropped here; the real question is raised after. Throws what interrupt() throws
 * when it cannot pause (no checkpointer, not in a graph).
 */
function takeAnswers(
  interrupt: (value: unknown) => unknown,
  isGraphInterrupt: (err: unknown) => boolean,
  scratchpad: Scratchpad | undefined,
): readonly unknown[] {
  for (;;) {
    try {
      interrupt({ type: 'approval-probe' });
    } catch (err) {
      if (!isGraphInterrupt(err)) throw err;
      return [...(scratchpad?.resume ?? [])];
    }
  }
}

type Conf = Record<string, unknown> | undefined;
const NOT_OUTPUT = new Set(['__error__', '__error_source_node__', '__interrupt__', '__resume__']);
type PendingWrite = [string, string, unknown];

/**
 * What the checkpointer holds for this step (LangGraph's own config keys, which interrupt()
 * itself reads): the question this task last raised, with its interrupt id; how many approval
 * questions wait over all tasks; the resume map the app passed; the task's scratchpad.
 */
interface Step extends Omit<MatchInput, 'answers'> {
  scratchpad?: Scratchpad;
}

async function readStep(
  getConfig: () => { configurable?: Record<string, unknown> },
  keyOf: (v: ApprovalRequest) => AskedKey,
): Promise<Step> {
  let conf: Conf;
  try {
    conf = getConfig().configurable;
  } catch {
    return { waiting: 0 }; // not inside a graph: interrupt() says so
  }
  const scratchpad = conf?.__pregel_scratchpad as Scratchpad | undefined;
  const resumeMap = conf?.__pregel_resume_map as Record<string, unknown> | undefined;
  const base = { ...(scratchpad && { scratchpad }), ...(resumeMap && typeof resumeMap === 'object' && { resumeMap }) };
  const saver = conf?.__pregel_checkpointer as
    | { getTuple(config: unknown): Promise<{ pendingWrites?: PendingWrite[] } | undefined> }
    | undefined;
  const task = conf?.__pregel_task_id;
  if (!saver || typeof task !== 'string') return { ...base, waiting: 0 };
  // The task's namespace is its graph's plus "|tools:<task>": the graph's checkpoint holds the writes
  // ('' for an agent of its own, the outer node's part when the agent runs as a subgraph).
  const ns = String(conf?.checkpoint_ns ?? '').split('|').slice(0, -1).join('|');
  const tuple = await saver.getTuple({ configurable: { thread_id: conf?.thread_id, checkpoint_ns: ns } });
  const writes = tuple?.pendingWrites ?? [];
  // A task that wrote its output answered its questions (LangGraph's own test: isTaskOutput).
  const done = new Set(writes.filter(([, channel]) => !NOT_OUTPUT.has(channel)).map(([writer]) => writer));
  let waiting = 0;
  let last: { value: ApprovalInterrupt; id?: string } | undefined;
  for (const [writer, channel, value] of writes) {
    if (channel !== '__interrupt__' || !Array.isArray(value) || done.has(writer)) continue;
    for (const pending of value as Array<{ id?: string; value?: Partial<ApprovalInterrupt> }>) {
      const v = pending?.value;
      if (v?.type !== 'approval' || typeof v.slot !== 'number' || !Array.isArray(v.earlier)) continue;
      waiting += 1;
      if (writer === task && (!last || v.slot >= last.value.slot)) last = { value: v as ApprovalInterrupt, id: pending.id };
    }
  }
  return { ...base, waiting, ...(last && { last: { ...last, key: keyOf(last.value) } }) };
}

/** The app's resume value as a decision; anything but a clear approval is a rejection. */
export function decisionFrom(resume: unknown): ApprovalDecision {
  // LangChain's HITLResponse for one question: `{ decisions: [decision] }`.
  const decisions = (resume as { decisions?: unknown } | null)?.decisions;
  if (Array.isArray(decisions) && decisions.length === 1) return decisionFrom(decisions[0]);
  const { type, message } = (resume ?? {}) as { type?: unknown; message?: unknown };
  if (type === 'approve') return { approved: true };
  if (type === 'reject') return { approved: false, reason: typeof message === 'string' && message ? message : 'Rejected.' };
  return {
    approved: false,
    reason: `The run was resumed with ${JSON.stringify(resume)?.slice(0, 80)}, not { type: 'approve' } or { type: 'reject' }.`,
  };
}
