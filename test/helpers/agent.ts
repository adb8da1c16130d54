import { ChatOpenAI } from '@langchain/openai';
import type { ApprovalRequest, Approver } from '../../src/agent/approvals.js';
import type { HistoryBudget } from '../../src/agent/history.js';
import { ChatSession } from '../../src/agent/runner.js';
import type { AnyToolDefinition, ToolContext, ToolFilter } from '../../src/call/index.js';
import type { ChatRequest, ScriptedOpenAI } from './scripted-openai.js';
import { testContext } from './site.js';

/** A ChatSession on the test site whose model is the real ChatOpenAI pointed at the scripted server. */
export function scriptedSession(
  server: ScriptedOpenAI,
  options: {
    approver?: Approver;
    streaming?: boolean;
    filter?: ToolFilter;
    maxSteps?: number;
    context?: ToolContext;
    history?: HistoryBudget;
    /** The site's abilities made tools of their own (abilityTools). */
    siteTools?: readonly AnyToolDefinition[];
  } = {},
) {
  const approvals: ApprovalRequest[] = [];
  const approver: Approver = options.approver ?? (async () => ({ approved: true }));
  const model = new ChatOpenAI({
    model: 'scripted-model',
    apiKey: 'test-key',
    configuration: { baseURL: server.url },
    streaming: options.streaming ?? true,
    streamUsage: true,
    maxRetries: 0,
  });
  const session = new ChatSession({
    model,
    context: options.context ?? testContext(),
    filter: options.filter,
    maxSteps: options.maxSteps,
    history: options.history,
    siteTools: options.siteTools,
    approver: async (request) => {
      approvals.push(request);
      return approver(request);
    },
  });
  return { session, approvals };
}

/** The parsed result of the latest tool message in a model request. */
export function lastToolResult(request: ChatRequest): any {
  const message = [...request.messages].reverse().find((m) => m.role === 'tool');
  return message ? JSON.parse(String(message.content)) : undefined;
}

/** Every tool call in the request's assistant messages has exactly one tool result. */
export function unansweredToolCalls(request: ChatRequest): string[] {
  const answered = request.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
  const calls = request.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).map((c) => c.id);
  return calls.filter((id) => answered.filter((a) => a === id).length !== 1);
}
