import type { ApprovalDecision } from '../call/index.js';

/**
 * Which question a LangGraph resume answers (issue #48, finding 1). LangGraph hands a task's
 * resume values to its `interrupt()` calls by ORDER: the first call gets the first value. A
 * task that runs several tools at once (the prebuilt `ToolNode` in a `StateGraph` runs a model
 * message's tool calls in one task) has its calls reach `interrupt()` in whatever order their
 * site reads finish, so by order call a could take the answer given to call b's question. So
 * each question records the questions asked before it in its task (its `slot` and `earlier`),
 * and a call takes only an answer given at a slot that held its own question.
 */

/**
 * One asked question: the model's tool-call id (null without one) and a hash of its words;
 * `void` when the answer given at its slot could not be tied to it (that answer counts for no one).
 */
export interface AskedKey {
  call: string | null;
  q: string;
  void?: true;
}

/** What a waiting question records: where it stands among its task's questions. */
export interface Ledger {
  slot: number;
  earlier: Array<AskedKey | null>;
  tool_call_id?: string;
}

export interface MatchInput {
  /** The question this task last raised (the checkpointer's pending interrupt), its key and id. */
  last?: { value: Ledger; key: AskedKey; id?: string };
  /** The task's resume values in LangGraph's order (slot i answers the question raised at slot i). */
  answers: readonly unknown[];
  /** The resume map the app passed (`Command({ resume: { [id]: decision } })`), if it passed one. */
  resumeMap?: Record<string, unknown>;
  /** Approval questions waiting on the checkpoint, over all tasks (a bare resume value fits only one). */
  waiting: number;
}

/**
 * The question asked at each slot (`null`: none on record). The last question's answer is
 * `void` when the app's resume map does not name that question's interrupt (LangGraph then
 * falls back to the task's first interrupt id: an answer to an older question) or when it is a
 * bare resume value while several questions wait (it answers none of them in particular).
 */
export function ledgerOf({ last, answers, resumeMap, waiting }: MatchInput): Array<AskedKey | null> {
  const size = Math.max(answers.length, last ? last.value.slot + 1 : 0);
  const ledger: Array<AskedKey | null> = Array.from({ length: size }, () => null);
  if (!last) return ledger;
  last.value.earlier.forEach((key, i) => {
    if (i < last.value.slot && key && typeof key.q === 'string')
      ledger[i] = { call: key.call ?? null, q: key.q, ...(key.void === true && { void: true as const }) };
  });
  const answered = answers.length > last.value.slot;
  const named = resumeMap ? last.id !== undefined && Object.hasOwn(resumeMap, last.id) : waiting <= 1;
  ledger[last.value.slot] = !answered || named ? last.key : { ...last.key, void: true };
  return ledger;
}

/**
 * This call's decision from the answers given to its own questions, or undefined when none
 * was given (ask). A rejection of any of its questions stands; an approval counts only for the
 * same words (a question asked again because the site changed needs its own approval). An
 * answer that names a tool call (`tool_call_id`) other than the one asked at its slot is no one's.
 */
export function decisionFor(
  ledger: ReadonlyArray<AskedKey | null>,
  answers: readonly unknown[],
  mine: AskedKey,
  read: (answer: unknown) => ApprovalDecision,
): ApprovalDecision | undefined {
  let approved = false;
  for (let slot = 0; slot < answers.length && slot < ledger.length; slot++) {
    const asked = ledger[slot];
    if (!asked || asked.void || !sameCall(asked, mine)) continue;
    const named = (answers[slot] as { tool_call_id?: unknown } | null)?.tool_call_id;
    if (typeof named === 'string' && named !== asked.call) continue;
    const decision = read(answers[slot]);
    if (!decision.approved) return decision;
    if (asked.q === mine.q) approved = true;
  }
  return approved ? { approved: true } : undefined;
}

/** The questions this call was asked before (0 on its first). */
export const timesAsked = (ledger: ReadonlyArray<AskedKey | null>, mine: AskedKey) =>
  ledger.filter((asked) => asked && sameCall(asked, mine)).length;

/** The same call: its tool-call id when it has one, else the same words. */
const sameCall = (a: AskedKey, b: AskedKey) => (b.call ? a.call === b.call : a.call === null && a.q === b.q);
