import { openAiStrictProblems, TOOL_NAME } from './provider-rules.js';
import { type ProviderReply, type ProviderRequest, ScriptedProvider } from './scripted-provider.js';

type ResponsesTool = { type: string; name?: string; parameters?: Record<string, unknown>; strict?: boolean | null };

/**
 * OpenAI's Responses API (`POST /v1/responses`, non-streaming): tools as
 * `{type: "function", name, parameters, strict}`, calls as `function_call` output items, results
 * as `function_call_output` input items. https://platform.openai.com/docs/api-reference/responses
 */
export class ScriptedResponses extends ScriptedProvider {
  protected readonly path = '/responses';

  protected problems(request: ProviderRequest): string[] {
    const tools = (request.tools ?? []) as ResponsesTool[];
    return tools.flatMap((tool, i) => {
      if (tool.type !== 'function') return [];
      if (!TOOL_NAME.test(tool.name ?? '')) {
        return [`Invalid 'tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`];
      }
      // The Responses API defaults `strict` to true for function tools.
      if (tool.strict === false) return [];
      return openAiStrictProblems(tool.parameters ?? {}, tool.name).map(
        (problem) => `Invalid schema for function '${tool.name}': ${problem}`,
      );
    });
  }

  protected errorBody(message: string) {
    return { error: { message, type: 'invalid_request_error', param: 'tools', code: 'invalid_function_parameters' } };
  }

  protected replyBody(request: ProviderRequest, reply: ProviderReply) {
    const id = `resp_${++this.counter}`;
    const output: unknown[] = (reply.toolCalls ?? []).map((call, i) => ({
      type: 'function_call',
      id: `fc_${this.counter}_${i}`,
      call_id: `call_${this.counter}_${i}`,
      name: call.name,
      arguments: JSON.stringify(call.args),
      status: 'completed',
    }));
    if (reply.content) {
      output.push({
        type: 'message',
        id: `msg_${this.counter}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.content, annotations: [] }],
      });
    }
    return {
      id,
      object: 'response',
      created_at: 0,
      model: request.model,
      status: 'completed',
      output,
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    };
  }
}

/** The output of the last `function_call_output` item the client sent, parsed. */
export function lastFunctionOutput(request: ProviderRequest): any {
  const items = (request.input ?? []) as Array<{ type?: string; output?: string }>;
  const output = items.filter((item) => item.type === 'function_call_output').at(-1)?.output;
  return output === undefined ? undefined : JSON.parse(output);
}
