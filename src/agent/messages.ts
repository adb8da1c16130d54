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
