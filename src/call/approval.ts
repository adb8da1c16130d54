import { WordPressError } from '../client/index.js';
import { maskSecretParams } from '../redact.js';
import { type AnyToolDefinition, type CallReview, isDryRun, type ToolContext } from '../tools/define-tool.js';
import { toErrorPayload } from '../tools/error-payload.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';

/**
 * The one approval path of every surface (chat runner, LangChain tools, MCP, tool shell):
 * `review()` decides, an Approver carries the question to a person. No surface keeps its own
 * list of risky tools. See docs/safety.md.
 */
export interface ApprovalRequest {
  tool: string;
  /** Arguments as the model sent them, secrets masked: safe to show. */
  args: Record<string, unknown>;
  /** What the call will change, read from the site: "give alice the role administrator (was: editor)". */
  summary: string;
  /** A write on several sites (#38): each site's effect, read from that site; `summary` lists them all. */
  sites?: Array<{ site: string; summary: string }>;
  /** The model's id for this tool call, when a LangChain tool call carried one. */
  tool_call_id?: string;
}

/** `unavailable`: no one could be asked (no terminal, no `approvals` option, no elicitation). */
export type ApprovalDecision = { approved: true } | { approved: false; reason: string; unavailable?: boolean };

/** Decides whether one call that needs approval may run. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision>;

export const approveAll: Approver = async () => ({ approved: true });

export function approvalRequest(tool: string, args: unknown, summary: string): ApprovalRequest {
  return { tool, args: (maskSecretParams(args) ?? {}) as Record<string, unknown>, summary };
}

/** A review that found the call cannot succeed (its target is missing, the role unknown). */
export interface FailedReview {
  approval: 'fails';
  error: ToolErrorPayload;
}

/**
 * The review of one call. When it finds the call cannot succeed (a ToolError, or WordPress
 * answering 400/404 for what the call names), the answer is that error: no one is asked about
 * a call that would fail. When reading the site fails otherwise (network, 5xx, 401/403), the
 * call needs approval (fail safe) and the prompt says the state could not be read.
 */
export async function reviewCall(
  tool: AnyToolDefinition,
  context: ToolContext,
  params: unknown,
): Promise<CallReview | FailedReview> {
  const fallback = `${tool.name} ${JSON.stringify(maskSecretParams(params))}`;
  if (!tool.review) return { approval: tool.annotations.destructive ? 'required' : 'none', summary: fallback };
  try {
    return await tool.review(context, params as never);
  } catch (err) {
    const wordpressRefusal = err instanceof WordPressError && (err.status === 400 || err.status === 404);
    const error = wordpressRefusal || !(err instanceof WordPressError) ? toErrorPayload(err) : undefined;
    if (error) return { approval: 'fails', error };
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { approval: 'required', summary: `${fallback} (could not read the site to describe it: ${why})` };
  }
}

/** `params`: what to run when the review resolved them (CallReview.params); else the call's own. */
export type CallDecision = { ok: true; params?: Record<string, unknown> } | { ok: false; error: ToolErrorPayload };

/**
 * Whether this call may run: read-only calls and dry runs always; otherwise the review decides,
 * and when it requires approval the approver asks. `params` are the parsed params. Run the
 * call with the decision's `params` when it has them: they are what the question named.
 */
export async function decideCall(
  tool: AnyToolDefinition,
  context: ToolContext,
  params: unknown,
  approver: Approver,
): Promise<CallDecision> {
  if (tool.annotations.readOnly || isDryRun(params)) return { ok: true };
  const review = await reviewCall(tool, context, params);
  if (review.approval === 'fails') return { ok: false, error: review.error };
  const resolved = review.params ? { params: review.params } : {};
  if (review.approval === 'none') return { ok: true, ...resolved };
  // The question shows the params that will run (resolved ones included), not the model's.
  const decision = await approver(approvalRequest(tool.name, review.params ?? params, review.summary));
  if (decision.approved) return { ok: true, ...resolved };
  return { ok: false, error: notApproved(decision) };
}

/** What a call that was not approved answers: refused by the person, or no one could be asked. */
export function notApproved(decision: ApprovalDecision & { approved: false }): ToolErrorPayload {
  if (decision.unavailable) {
    return { code: 'approval_unavailable', message: `Not run: ${decision.reason} Nothing was changed.` };
  }
  return {
    code: 'rejected_by_user',
    message: `The call was not approved: ${decision.reason} Nothing was changed.`,
    hint: 'Do not retry this call; ask the person what they want instead.',
  };
}
