import { getConfig, isGraphInterrupt } from '@langchain/langgraph';
import { type AgentMiddleware, humanInTheLoopMiddleware } from 'langchain';
import { approvalInterruptOn } from '../adapters/hitl.js';

/**
 * Approvals of the served graph: LangChain's own `humanInTheLoopMiddleware` with each tool's
 * review as `interruptOn` (adapters/hitl.ts: the question read from the site, approve / edit /
 * reject, what runs is what was approved). Its interrupt is JS LangChain's `HITLRequest`
 * (`actionRequests`, `reviewConfigs: [{ actionName, allowedDecisions }]`); Agent Chat UI and the
 * Agent Inbox in it render approve / edit / reject only for the snake_case form Python's
 * middleware sends (`action_requests`, `review_configs: [{ action_name, allowed_decisions }]`,
 * agent-chat-ui src/lib/agent-inbox-interrupt.ts), and answer an edit with `edited_action`. So
 * the question carries both spellings, and an `edited_action` is read as `editedAction`.
 */
export function approvalsMiddleware(tools: readonly object[]): AgentMiddleware {
  const hitl = humanInTheLoopMiddleware({ interruptOn: approvalInterruptOn(tools) });
  const after = hitl.afterModel as { hook: (...args: never[]) => unknown; canJumpTo?: unknown } | ((...args: never[]) => unknown);
  const hook = typeof after === 'function' ? after : after.hook;
  const wrapped = async (...args: never[]) => {
    for (const resume of resumeValues()) snakeCaseEdits(resume);
    try {
      return await hook(...args);
    } catch (err) {
      if (isGraphInterrupt(err)) for (const pending of err.interrupts) pending.value = bothSpellings(pending.value);
      throw err;
    }
  };
  // An edited call (or one whose site changed) is asked again by the tool itself (interrupt.ts): that question too.
  const wrapToolCall = async (request: unknown, handler: (request: unknown) => Promise<unknown>) => {
    try {
      return await handler(request);
    } catch (err) {
      if (isGraphInterrupt(err)) for (const pending of err.interrupts) pending.value = bothSpellings(pending.value);
      throw err;
    }
  };
  return { ...hitl, afterModel: typeof after === 'function' ? wrapped : { ...after, hook: wrapped }, wrapToolCall } as unknown as AgentMiddleware;
}

/** The resume values LangGraph holds for this task (its scratchpad: LangGraph's own config key, which interrupt() reads). */
function resumeValues(): unknown[] {
  let pad: { resume?: unknown[]; nullResume?: unknown } | undefined;
  try {
    pad = getConfig()?.configurable?.__pregel_scratchpad as typeof pad;
  } catch {
    return [];
  }
  return [...(pad?.resume ?? []), pad?.nullResume];
}

/** `{ decisions: [{ type: 'edit', edited_action }] }` (Agent Chat UI) as the JS middleware reads it. */
function snakeCaseEdits(resume: unknown): void {
  const decisions = (resume as { decisions?: unknown } | null | undefined)?.decisions;
  if (!Array.isArray(decisions)) return;
  for (const decision of decisions as Array<Record<string, unknown> | null>) {
    if (decision?.type === 'edit' && decision.editedAction === undefined && decision.edited_action !== undefined)
      decision.editedAction = decision.edited_action;
  }
}

type Review = { actionName?: string; allowedDecisions?: string[] };

/** The HITL request with the snake_case keys too (the same arrays and values). */
export function bothSpellings(value: unknown): unknown {
  const request = value as { actionRequests?: unknown[]; reviewConfigs?: Review[] } | null;
  if (!request || !Array.isArray(request.actionRequests) || !Array.isArray(request.reviewConfigs)) return value;
  const reviewConfigs = request.reviewConfigs.map((c) => ({ ...c, action_name: c.actionName, allowed_decisions: c.allowedDecisions }));
  return { ...request, reviewConfigs, action_requests: request.actionRequests, review_configs: reviewConfigs };
}
