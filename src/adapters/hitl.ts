import { createHash } from 'node:crypto';
import { type Approver, type ApprovalRequest, isFleet, questionOf, resolveCall } from '../call/index.js';
import { interruptApprover } from './interrupt.js';
import { registryToolBinding } from './langchain.js';

/** A tool call as LangChain's middleware hands it over. */
interface ToolCallLike {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * One tool's entry in `humanInTheLoopMiddleware({ interruptOn })` (LangChain v1's
 * `InterruptOnConfig`): which decisions the person may take, the question (read from the site),
 * and whether this call is held up at all.
 */
export interface ApprovalInterruptOnConfig {
  allowedDecisions: Array<'approve' | 'edit' | 'reject'>;
  description: (toolCall: ToolCallLike) => Promise<string>;
  when: (request: { toolCall: ToolCallLike }) => Promise<boolean>;
}

/** What the middleware asked about one tool call: the call and its question, as the tool reviews it. */
interface Asked {
  key: string;
}

const hash = (request: ApprovalRequest) =>
  createHash('sha256').update(JSON.stringify([request.tool, request.args, request.summary])).digest('hex');

/**
 * The value for LangChain v1's own approval middleware (#52.14):
 *
 * ```ts
 * const tools = new UserToolkit({ context }).getTools();
 * createAgent({ model, tools, checkpointer, middleware: [humanInTheLoopMiddleware({ interruptOn: approvalInterruptOn(tools) })] });
 * ```
 *
 * Each write tool of ours gets `{ allowedDecisions: ['approve', 'edit', 'reject'], description,
 * when }`: `when` reviews the call on the site and holds it up only when its review asks a
 * person (a call that changes nothing, a dry run, a call that would fail are not held up);
 * `description` is the review's question, read from the site. Read-only tools are `false`.
 *
 * What runs is what was approved: each tool's approver is bound to the question the middleware
 * asked for its call (by tool-call id, the call's params and the question's words). An `edit`
 * decision changes the call, so the tool reviews the edited call again and asks again (a
 * LangGraph interrupt of its own in the middleware's `HITLRequest` shape, approve or reject);
 * so does a call whose site changed between the question and the run. Several sites (a fleet):
 * the middleware's hooks have no site to read, so those tools ask for themselves in the same
 * shape and the middleware does not hold them up (docs/safety.md).
 */
export function approvalInterruptOn(tools: readonly object[]): Record<string, ApprovalInterruptOnConfig | false> {
  const out: Record<string, ApprovalInterruptOnConfig | false> = {};
  for (const lcTool of tools) {
    const binding = registryToolBinding(lcTool);
    if (!binding) continue;
    const { tool, context } = binding;
    if (tool.annotations.readOnly) {
      out[tool.name] = false;
      continue;
    }
    const asked = new Map<string, Asked>();
    // The call's question on the site now; undefined when no person would be asked.
    const question = async (call: ToolCallLike): Promise<ApprovalRequest | undefined> => {
      if (isFleet(context)) return undefined;
      // The call resolved and its question built as the tool's own decide step will (call/decide.ts).
      const resolved = await resolveCall({ tool, params: call.args }, context);
      if (!resolved.ok) return undefined;
      const asks = await questionOf(resolved.call);
      if (asks.approval !== 'required') return undefined;
      return { ...asks.request, ...(call.id && { tool_call_id: call.id }) };
    };
    const reviews = new Map<string, Promise<ApprovalRequest | undefined>>();
    // `when` and `description` of one call read the site once.
    const reviewed = (call: ToolCallLike) => {
      const key = `${call.id ?? ''}\u0000${JSON.stringify(call.args)}`;
      let review = reviews.get(key);
      if (!review) {
        review = question(call);
        reviews.set(key, review);
        if (reviews.size > 200) reviews.delete(reviews.keys().next().value as string);
      }
      return review;
    };
    out[tool.name] = {
      allowedDecisions: ['approve', 'edit', 'reject'],
      when: async ({ toolCall }) => (await reviewed(toolCall)) !== undefined,
      description: async (toolCall) => {
        const request = await reviewed(toolCall);
        if (!request) return `${tool.name}: ${JSON.stringify(toolCall.args)}`;
        // The question the person is shown is the one bound: a resume that runs this hook again
        // (LangGraph replays it) keeps the first, what the person saw.
        if (toolCall.id && !asked.has(toolCall.id)) asked.set(toolCall.id, { key: hash(request) });
        return request.summary;
      },
    };
    binding.approver = boundApprover(asked);
  }
  return out;
}

/**
 * The tool's approver under the middleware: the call the person approved (same id, params and
 * question) runs; anything else — an edited call, a site that changed, a call the middleware did
 * not hold up whose review now asks — is asked again by the tool itself.
 */
function boundApprover(asked: Map<string, Asked>): Approver {
  return async (request) => {
    const was = request.tool_call_id ? asked.get(request.tool_call_id) : undefined;
    if (was && was.key === hash(request)) return { approved: true };
    return interruptApprover(request);
  };
}
