import { type BaseMessage, createMiddleware, HumanMessage, ToolMessage } from 'langchain';
import { summarizeToolResult } from '../summary.js';
import { messageText } from './messages.js';

export interface HistoryBudget {
  /** Approximate tokens of conversation sent per model request (default 24,000). */
  maxTokens?: number;
  /** The latest user turns whose tool results are sent whole while they fit (default 2). */
  keepTurns?: number;
}

export const DEFAULT_HISTORY_TOKENS = 24_000;

/** ~4 characters a token for JSON and English (o200k/cl100k); close enough for a budget. */
export const approxTokens = (text: string) => Math.ceil(text.length / 4);

const messageTokens = (message: BaseMessage) =>
  approxTokens(messageText(message)) + approxTokens(JSON.stringify((message as { tool_calls?: unknown }).tool_calls ?? ''));

/**
 * What the model is sent instead of the whole history: tool results older than the last
 * `keepTurns` user turns become a one-line stub (tool, arguments, counts), then — if the
 * request is still over `maxTokens` — older results of the kept turns too, oldest first. The
 * latest tool round is never stubbed. The session keeps every message; only the request shrinks.
 */
export function boundHistory(messages: readonly BaseMessage[], budget: HistoryBudget = {}): BaseMessage[] {
  const maxTokens = budget.maxTokens ?? DEFAULT_HISTORY_TOKENS;
  const keepTurns = budget.keepTurns ?? 2;
  const humans = messages.flatMap((message, index) => (HumanMessage.isInstance(message) ? [index] : []));
  const keepFrom = humans.length > keepTurns ? (humans[humans.length - keepTurns] as number) : 0;
  // The latest tool round: results after the last model message that asked for tools.
  let lastRound = messages.length;
  while (lastRound > 0 && ToolMessage.isInstance(messages[lastRound - 1])) lastRound--;

  const out = [...messages];
  const calls = toolCalls(messages);
  const stub = (index: number) => {
    const message = out[index];
    if (!ToolMessage.isInstance(message) || message.additional_kwargs?.cms_stub) return;
    out[index] = stubFor(message, calls.get(message.tool_call_id));
  };
  for (let i = 0; i < keepFrom; i++) stub(i);
  let total = out.reduce((sum, message) => sum + messageTokens(message), 0);
  for (let i = keepFrom; i < lastRound && total > maxTokens; i++) {
    const before = messageTokens(out[i] as BaseMessage);
    stub(i);
    total += messageTokens(out[i] as BaseMessage) - before;
  }
  return out;
}

function toolCalls(messages: readonly BaseMessage[]): Map<string, { name: string; args: unknown }> {
  const calls = new Map<string, { name: string; args: unknown }>();
  for (const message of messages) {
    for (const call of (message as { tool_calls?: Array<{ id?: string; name: string; args: unknown }> }).tool_calls ??
      []) {
      if (call.id) calls.set(call.id, { name: call.name, args: call.args });
    }
  }
  return calls;
}

function stubFor(message: ToolMessage, call: { name: string; args: unknown } | undefined): ToolMessage {
  const text = messageText(message);
  if (approxTokens(text) <= 60) return message;
  const args = JSON.stringify(call?.args ?? {});
  const what = `${call?.name ?? message.name ?? 'tool'} ${args.length > 200 ? `${args.slice(0, 199)}…` : args}`;
  const { line } = summarizeToolResult(text);
  return new ToolMessage({
    content: `[Earlier result of ${what}: ${line}. Left out to save context; call the tool again if you need it.]`,
    tool_call_id: message.tool_call_id,
    name: message.name,
    status: message.status,
    additional_kwargs: { cms_stub: true },
  });
}

/** Bounds every model request of the agent to the history budget (see boundHistory). */
export function historyMiddleware(budget: HistoryBudget = {}) {
  return createMiddleware({
    name: 'CmsAdminHistory',
    wrapModelCall: (request, handler) => handler({ ...request, messages: boundHistory(request.messages, budget) }),
  });
}
