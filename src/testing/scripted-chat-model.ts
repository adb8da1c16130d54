import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BaseChatModelParams } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/** One scripted answer: an AIMessage (tool calls included) or plain text. */
export type ScriptedResponse = AIMessage | string;

export interface ScriptedChatModelOptions extends BaseChatModelParams {
  /** The answers, given in order, one per model call. */
  responses: ScriptedResponse[];
}

/** What the model was asked: the messages of one call and the names of the tools bound then. */
export interface ScriptedCall {
  messages: BaseMessage[];
  tools: string[];
}

/**
 * A chat model that answers from a script, for testing an agent offline: no provider, no network.
 * Unlike `FakeListChatModel` it makes tool calls (an `AIMessage` with `tool_calls`), and
 * `bindTools` works, so `createAgent({ model: new ScriptedChatModel({ responses }), tools })` runs
 * the real tools, approvals and interrupts. Calls past the end of the script throw, naming how
 * many answers there were; `calls` records what each call was sent.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly calls: ScriptedCall[];
  readonly #responses: ScriptedResponse[];
  readonly #position: { next: number };
  readonly #tools: string[];

  constructor(options: ScriptedChatModelOptions, shared?: { position: { next: number }; calls: ScriptedCall[]; tools: string[] }) {
    const { responses, ...rest } = options;
    super(rest);
    this.#responses = responses;
    this.#position = shared?.position ?? { next: 0 };
    this.calls = shared?.calls ?? [];
    this.#tools = shared?.tools ?? [];
  }

  _llmType(): string {
    return 'scripted';
  }

  /** The same script (bound copies share the position), with these tools' names recorded. */
  override bindTools(tools: Array<{ name?: string } | Record<string, unknown>>): ScriptedChatModel {
    const names = tools.map((t) => String((t as { name?: unknown }).name ?? (t as { function?: { name?: unknown } }).function?.name ?? ''));
    return new ScriptedChatModel({ responses: this.#responses }, { position: this.#position, calls: this.calls, tools: names });
  }

  /** Answers not given yet. */
  get remaining(): number {
    return this.#responses.length - this.#position.next;
  }

  async _generate(messages: BaseMessage[], _options: this['ParsedCallOptions'], _run?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const index = this.#position.next;
    if (index >= this.#responses.length)
      throw new Error(`ScriptedChatModel: call ${index + 1} has no answer (the script has ${this.#responses.length}); add responses.`);
    this.#position.next++;
    this.calls.push({ messages, tools: this.#tools });
    const response = this.#responses[index] as ScriptedResponse;
    const message = typeof response === 'string' ? new AIMessage(response) : withToolCallIds(response, index);
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** Tool calls need ids for their results to pair with: give missing ones a stable id. */
function withToolCallIds(message: AIMessage, index: number): AIMessage {
  if (!message.tool_calls?.length || message.tool_calls.every((call) => call.id)) return message;
  return new AIMessage({
    content: message.content,
    tool_calls: message.tool_calls.map((call, i) => ({ ...call, id: call.id ?? `scripted-${index + 1}-${i + 1}` })),
  });
}
