import { type AnyToolDefinition, isDryRun, type ToolContext } from '../tools/define-tool.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import { type ApprovalRequest, type Approver, approvalRequest, notApproved, reviewCall } from './approval.js';
import { asResolved, isResolved, type ResolvedCall, resolveCall } from './resolve.js';

declare const decidedBrand: unique symbol;

/**
 * A resolved call that may run: decided by `decideCall` (read-only, a dry run, a review that asks
 * nobody, a person who approved, or the operator's own call), its params exactly what the
 * question named. `runTool` runs nothing else (run-tool.ts checks, a cast does not pass).
 */
export interface DecidedCall extends ResolvedCall {
  readonly [decidedBrand]: true;
}

/**
 * The operator's own call (`cms-admin invoke`, the library's `invoke()` without an approver;
 * docs/safety.md): what the person typed runs as given, no question. Only those two use it
 * (test/unit/architecture.test.ts).
 */
export const OPERATORS_OWN_CALL: unique symbol = Symbol('the operator’s own call');

/** Who decides a call that needs a person: an Approver, or nobody (the operator's own call). */
export type Policy = Approver | typeof OPERATORS_OWN_CALL;

export type Decision = { ok: true; call: DecidedCall } | { ok: false; error: ToolErrorPayload };

const decided = new WeakSet<object>();

export const isDecided = (value: unknown): value is DecidedCall => typeof value === 'object' && value !== null && decided.has(value);

/** The call with the params that will run (what the question named). For this room only: fleet-write.ts after its one question. */
export function decidedAs(call: ResolvedCall, params: Readonly<Record<string, unknown>> = call.params): DecidedCall {
  if (!isResolved(call)) throw new Error('decidedAs takes a call from resolveCall (src/call/resolve.ts).');
  const out = asResolved({ tool: call.tool, params, context: call.context }) as DecidedCall;
  decided.add(out);
  return out;
}

/** What a resolved call asks: nothing, a question (with the params it will run), or why it would fail. */
export type Question =
  | { approval: 'none'; params: Readonly<Record<string, unknown>> }
  | { approval: 'required'; params: Readonly<Record<string, unknown>>; request: ApprovalRequest }
  | { approval: 'fails'; error: ToolErrorPayload };

/**
 * The question a resolved call asks, read from its site: read-only calls and dry runs none; a
 * write its review's. The question shows the params that will run (a review's resolved ones
 * included) with ids, so a call given with names and with ids asks the same.
 */
export async function questionOf(call: ResolvedCall): Promise<Question> {
  const { tool, context, params } = call;
  if (tool.annotations.readOnly || isDryRun(params)) return { approval: 'none', params };
  const review = await reviewCall(tool, context, params);
  if (review.approval === 'fails') return review;
  const runs = review.params ?? params;
  if (review.approval === 'none') return { approval: 'none', params: runs };
  return { approval: 'required', params: runs, request: approvalRequest(tool.name, runs, review.summary) };
}

/**
 * Whether this call may run, and with which params: the one decide step of every surface.
 * Read-only calls and dry runs always; otherwise the review decides and, when it asks, the
 * approver; the operator's own call runs as given. `decideCall(tool, context, params, policy)`
 * resolves the params (names included) first.
 */
export async function decideCall(call: ResolvedCall, policy: Policy): Promise<Decision>;
export async function decideCall(tool: AnyToolDefinition, context: ToolContext, params: unknown, policy: Policy): Promise<Decision>;
export async function decideCall(
  first: ResolvedCall | AnyToolDefinition,
  second: Policy | ToolContext,
  params?: unknown,
  last?: Policy,
): Promise<Decision> {
  if (typeof (first as AnyToolDefinition).execute === 'function') {
    const resolved = await resolveCall({ tool: first as AnyToolDefinition, params }, second as ToolContext);
    return resolved.ok ? decideCall(resolved.call, last as Policy) : resolved;
  }
  if (!isResolved(first)) throw new Error('decideCall takes a call from resolveCall (src/call/resolve.ts).');
  const call = first;
  const policy = second as Policy;
  if (policy === OPERATORS_OWN_CALL) return { ok: true, call: decidedAs(call) };
  const question = await questionOf(call);
  if (question.approval === 'fails') return { ok: false, error: question.error };
  if (question.approval === 'none') return { ok: true, call: decidedAs(call, question.params) };
  const answer = await policy(question.request);
  if (!answer.approved) return { ok: false, error: notApproved(answer) };
  return { ok: true, call: decidedAs(call, question.params) };
}
