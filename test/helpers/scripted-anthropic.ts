import { anthropicStrictProblems, TOOL_NAME } from './provider-rules.js';
import { type ProviderReply, type ProviderRequest, ScriptedProvider } from './scripted-provider.js';

type AnthropicTool = { name: string; input_schema?: Record<string, unknown>; strict?: boolean };
type Block = { type: string; content?: unknown; tool_use_id?: string };

/**
 * Anthropic's Messages API (`POST /v1/messages`, non-streaming): tools as
 * `{name, description, input_schema}` (+ `strict`), calls as `tool_use` content blocks, results
 * as `tool_result` blocks in a user message. https://docs.anthropic.com/en/api/messages
 */
export class ScriptedAnthropic extends ScriptedProvider {
  protected readonly path = '/v1/messages';

  protected problems(request: ProviderRequest): string[] {
    const problems: string[] = [];
    if (typeof request.max_tokens !== 'number') problems.push('max_tokens: Field required');
    ((request.tools ?? []) as AnthropicTool[]).forEach((tool, i) => {
      if (!TOOL_NAME.test(tool.name)) problems.push(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
      if (tool.input_schema?.type !== 'object') problems.push(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
      if (tool.strict) problems.push(...anthropicStrictProblems(tool.input_schema ?? {}, `tools.${i}.custom.input_schema`));
    });
    return problems;
  }

  protected errorBody(message: string) {
    return { type: 'error', error: { type: 'invalid_request_error', message } };
  }

  protected replyBody(request: ProviderRequest, reply: ProviderReply) {
    const id = `msg_${++this.counter}`;
    const content: unknown[] = [];
    if (reply.content) content.push({ type: 'text', text: reply.content });
    (reply.toolCalls ?? []).forEach((call, i) => {
      content.push({ type: 'tool_use', id: `toolu_${this.counter}_${i}`, name: call.name, input: call.args });
    });
    return {
      id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  }
}

/** The content of the last `tool_result` block the client sent, parsed. */
export function lastToolResultBlock(request: ProviderRequest): any {
  const messages = (request.messages ?? []) as Array<{ role: string; content: unknown }>;
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));
  const result = blocks.filter((b) => b.type === 'tool_result').at(-1);
  if (!result) return undefined;
  const content = result.content;
  const text = typeof content === 'string' ? content : (content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
  return JSON.parse(text);
}
