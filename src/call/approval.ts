import { WordPressError } from '../client/index.js';
import { maskSecretParams } from '../redact.js';
import type { AnyToolDefinition, CallReview, ToolContext } from '../tools/define-tool.js';
import { toErrorPayload } from '../tools/error-payload.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';

/**
 * What the one approval path (decide.ts) is made of: `review()` decides, an Approver carries the
 * question to a person. No surface keeps its own list of risky tools. See docs/safety.md.
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
