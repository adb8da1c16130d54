import { AIMessage, type BaseMessage, ToolMessage } from 'langchain';

/**
 * Drops a trailing AI message whose tool calls have no results (a turn cut short by Ctrl-C,
 * the step limit or a model error), so the next request to the model is valid.
 */
export function trimDanglingToolCalls(messages: readonly BaseMessage[]): BaseMessage[] {
  const answered = new Set(messages.filter(ToolMessage.isInstance).map((m) => m.tool_call_id));
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const message = out[i];
    if (AIMessage.isInstance(message) && message.tool_calls?.some((call) => !answered.has(call.id ?? ''))) {
      out.splice(i);
      break;
    }
  }
  return out;
}

/**
 * Tool results of a turn, also those that finish after the turn was cancelled: a tool whose
 * requests were aborted still returns (with what it did), and that belongs in the history.
 */
export class ToolResultLedger {
  #results = new Map<string, ToolMessage>();
  readonly #running = new Set<Promise<unknown>>();

  track<T>(id: string, work: Promise<T>): Promise<T> {
    const done = work.then((message) => {
      if (ToolMessage.isInstance(message)) this.#results.set(id, message);
      return message;
    });
    this.#running.add(done);
    void done.finally(() => this.#running.delete(done)).catch(() => undefined);
    return done;
  }

  /** The results so far, forgotten here (one turn's worth). */
  take(): Map<string, ToolMessage> {
    const results = this.#results;
    this.#results = new Map();
    return results;
  }

  /** Waits for the calls still running (their requests stop promptly once cancelled). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }
}

/**
 * The last AI message's calls without results, answered when any of them ran: with the
 * recorded result, or as not run. The model then knows exactly what happened; every call keeps
 * exactly one result (langchainjs#11125). When none ran, the message is dropped instead.
 */
export function answerDanglingToolCalls(
  messages: readonly BaseMessage[],
  results: ReadonlyMap<string, ToolMessage>,
  why: string,
): BaseMessage[] {
  const index = messages.findLastIndex((m) => AIMessage.isInstance(m));
  const last = messages[index];
  if (!last || !AIMessage.isInstance(last) || !last.tool_calls?.length) return trimDanglingToolCalls(messages);
  const answered = new Set(messages.slice(index).filter(ToolMessage.isInstance).map((m) => m.tool_call_id));
  const missing = last.tool_calls.filter((call) => !answered.has(call.id ?? ''));
  if (!missing.length || !missing.some((call) => results.has(call.id ?? ''))) return trimDanglingToolCalls(messages);
  const added = missing.map(
    (call) =>
      results.get(call.id ?? '') ??
      new ToolMessage({
        content: JSON.stringify({ error: { code: 'not_run', message: `${why} This call did not run; nothing was changed by it.` } }),
        tool_call_id: call.id ?? '',
        name: call.name,
        status: 'error',
      }),
  );
  return [...messages, ...added];
}

export function messageText(message: BaseMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  return content
    .map((part) => (typeof part === 'string' ? part : part.type === 'text' ? String((part as { text?: string }).text ?? '') : ''))
    .join('');
}

export interface TokenUsage {
  input: number;
  output: number;
  total: number;
}

export function addUsage(total: TokenUsage, message: BaseMessage): void {
  if (!AIMessage.isInstance(message) || !message.usage_metadata) return;
  total.input += message.usage_metadata.input_tokens ?? 0;
  total.output += message.usage_metadata.output_tokens ?? 0;
  total.total += message.usage_metadata.total_tokens ?? 0;
}
