import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage, createAgent, HumanMessage, ToolMessage } from 'langchain';
import { toLangChainTool } from '../adapters/langchain.js';
import { type AnyToolDefinition, type Fleet, fleetTools, isFleet, resolveToolsets, selectTools, type ToolContext, type ToolFilter } from '../call/index.js';
import { type ToolsetName, TOOLSET_OF, tools as registry } from '../call/index.js';
import type { Approver } from './approvals.js';
import { DEFAULT_MAX_STEPS } from './defaults.js';
import { addUsage, answerDanglingToolCalls, messageText, type TokenUsage, ToolResultLedger } from './messages.js';
import { type HistoryBudget, historyMiddleware } from './history.js';
import { loadSystemPrompt } from './prompt.js';
import { toolCallMiddleware } from './tool-calls.js';
import { toolsetsMiddleware } from './toolsets.js';

export interface AdminAgentOptions {
  model: BaseChatModel;
  /** The site; or several (a Fleet, sites/fleet.ts' fleetOf): every tool then takes `site` (#38). */
  context: ToolContext | Fleet;
  approver: Approver;
  /**
   * Only one toolkit, read-only mode, an allowlist; `toolsets`: the ones the session starts with
   * (default: the default set). The model adds others with enable-toolset (issue #51).
   */
  filter?: ToolFilter;
  systemPrompt?: string;
  /** Model calls allowed in one turn before the turn stops. */
  maxSteps?: number;
  /** Bounds what each model request carries of the history; the session keeps it all. */
  history?: HistoryBudget;
  /** Strict-ready tool schemas (see ToolkitOptions.strict). */
  strict?: boolean;
  /**
   * The site's abilities made tools of their own (`abilityTools(sites, ['woocommerce/*'])`,
   * docs/abilities.md): offered in every toolset selection; a read-only session keeps the read-only ones.
   */
  siteTools?: readonly AnyToolDefinition[];
}

export type TurnEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; args: Record<string, unknown> }
  | { type: 'tool_result'; id: string; name: string; content: string; ok: boolean };

export interface ToolCallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result?: string;
  ok?: boolean;
  /** false when the turn stopped before this call ran (step limit, Ctrl-C, model error). */
  executed?: boolean;
}

export interface TurnResult {
  answer: string;
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
  steps: number;
  /** Why the turn ended early, if it did. */
  stopped?: { reason: 'step_limit' | 'cancelled' | 'model_error'; message: string };
}

export { DEFAULT_MAX_STEPS };

/** A conversation with the admin agent: history kept across turns, one turn at a time. */
export class ChatSession {
  messages: BaseMessage[] = [];
  readonly #agent;
  readonly #maxSteps: number;
  readonly #ledger = new ToolResultLedger();
  readonly #enabled: Set<ToolsetName>;
  readonly #selected: string[];

  constructor(options: AdminAgentOptions) {
    const { context } = options;
    const { toolsets, ...filter } = options.filter ?? {};
    // Every tool of the session's shape is given to createAgent; toolsetsMiddleware sends the
    // model only the enabled toolsets' (and enable-toolset while one is not enabled).
    const site = (options.siteTools ?? []).filter((tool) => !filter.readOnly || tool.annotations.readOnly);
    const selected = isFleet(context)
      ? fleetTools([...selectTools(registry, { ...filter, fleet: true }), ...site])
      : [...selectTools(registry, filter), ...site];
    this.#enabled = new Set(toolsets ?? resolveToolsets(undefined));
    this.#selected = selected.map((tool) => tool.name);
    this.#maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.#agent = createAgent({
      model: options.model,
      tools: selected.map((tool) =>
        toLangChainTool(tool, options.context, { strict: options.strict, approvals: options.approver }),
      ),
      systemPrompt: options.systemPrompt ?? loadSystemPrompt(),
      middleware: [
        toolsetsMiddleware({ enabledFor: () => this.#enabled }),
        toolCallMiddleware(selected, this.#ledger),
        historyMiddleware(options.history),
      ],
    });
  }

  /** The tools the model is offered now (enable-toolset aside): the enabled toolsets'. */
  get toolNames(): string[] {
    // A site's ability made a tool (no toolset) is offered whatever toolsets are enabled.
    return this.#selected.filter((name) => !TOOLSET_OF[name] || this.#enabled.has(TOOLSET_OF[name] as ToolsetName));
  }

  /** The toolsets enabled now (the starting ones and those the model enabled). */
  get toolsets(): ToolsetName[] {
    return [...this.#enabled];
  }

  reset(): void {
    this.messages = [];
  }

  async turn(text: string, options: { signal?: AbortSignal; onEvent?: (event: TurnEvent) => void } = {}): Promise<TurnResult> {
    const emit = options.onEvent ?? (() => {});
    const input = [...this.messages, new HumanMessage(text)];
    let latest: BaseMessage[] = input;
    const calls = new Map<string, ToolCallRecord>();
    let stopped: TurnResult['stopped'];
    try {
      const stream = await this.#agent.stream(
        { messages: input },
        // A step is one model call; each but the last is followed by a tool round (a graph step too).
        { streamMode: ['messages', 'values'], recursionLimit: this.#maxSteps * 2 - 1, signal: options.signal },
      );
      for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
        if (mode === 'values') {
          latest = (chunk as { messages: BaseMessage[] }).messages;
          // A finished model step: its tool calls are whole now (chunks carry partial args).
          for (const message of latest.slice(input.length)) {
            if (AIMessage.isInstance(message)) this.#noteToolCalls(message, calls, emit);
            if (ToolMessage.isInstance(message)) this.#noteToolResult(message, calls, emit);
          }
          continue;
        }
        const [message] = chunk as [BaseMessage, unknown];
        if (AIMessageChunk.isInstance(message)) {
          const delta = messageText(message);
          if (delta) emit({ type: 'text', delta });
        } else if (ToolMessage.isInstance(message)) {
          this.#noteToolResult(message, calls, emit);
        }
      }
    } catch (err) {
      stopped = this.#stopReason(err, options.signal);
    }
    // Calls that ran keep their (partial) results in the history, also after a Ctrl-C.
    await this.#ledger.settled();
    const results = this.#ledger.take();
    latest = answerDanglingToolCalls(latest, results, stopped?.message ?? '');
    for (const message of latest.slice(input.length))
      if (ToolMessage.isInstance(message)) this.#noteToolResult(message, calls, emit);
    this.messages = latest;
    const newMessages = latest.slice(input.length);
    const usage: TokenUsage = { input: 0, output: 0, total: 0 };
    for (const message of newMessages) addUsage(usage, message);
    const last = newMessages.at(-1);
    const answer = last && AIMessage.isInstance(last) && !last.tool_calls?.length ? messageText(last) : '';
    return {
      answer,
      // A call the model asked for but the step limit or Ctrl-C cut off is kept, marked not run.
      toolCalls: [...calls.values()].map((call) => (call.result === undefined ? { ...call, ok: false, executed: false } : call)),
      usage,
      steps: newMessages.filter((m) => AIMessage.isInstance(m)).length,
      stopped,
    };
  }

  #noteToolCalls(message: AIMessage, calls: Map<string, ToolCallRecord>, emit: (event: TurnEvent) => void): void {
    for (const call of message.tool_calls ?? []) {
      const id = call.id ?? '';
      if (!id || calls.has(id)) continue;
      const record = { id, name: call.name, args: call.args as Record<string, unknown> };
      calls.set(id, record);
      emit({ type: 'tool_call', ...record });
    }
  }

  #noteToolResult(message: ToolMessage, calls: Map<string, ToolCallRecord>, emit: (event: TurnEvent) => void): void {
    const record = calls.get(message.tool_call_id);
    if (!record || record.result !== undefined) return;
    record.result = messageText(message);
    record.ok = message.status !== 'error';
    emit({ type: 'tool_result', id: record.id, name: record.name, content: record.result, ok: record.ok });
  }

  #stopReason(err: unknown, signal: AbortSignal | undefined): NonNullable<TurnResult['stopped']> {
    const error = err as Error & { name?: string; status?: number };
    if (signal?.aborted || error?.name === 'AbortError') return { reason: 'cancelled', message: 'Turn cancelled.' };
    if (error?.name === 'GraphRecursionError') {
      return {
        reason: 'step_limit',
        message: `Stopped after ${this.#maxSteps} steps (the step limit). Say "continue" to go on, or raise --max-steps.`,
      };
    }
    return { reason: 'model_error', message: describeModelError(error) };
  }
}

/** A model endpoint failure in one line: status and cause, never the key; what to change. */
export function describeModelError(error: Error & { status?: number; code?: string }): string {
  const first = String(error?.message ?? error).split('\n')[0]?.replace(/sk-[A-Za-z0-9_-]{6,}/g, 'sk-…') ?? '';
  // Provider SDKs start their messages with the status ("400 Invalid schema…"); some wrappers
  // keep the message but drop `status`.
  const code = error?.status ?? Number(/^([45]\d\d)\b/.exec(first)?.[1] ?? Number.NaN);
  const known = Number.isFinite(code) ? code : undefined;
  const status = known && !first.startsWith(String(known)) ? `HTTP ${known}: ` : '';
  return `The model endpoint failed (${status}${first}).${hintFor(known, first)}`;
}

function hintFor(status: number | undefined, message: string): string {
  if (status === 401) return ' Check OPENAI_API_KEY.';
  if (status === 404) return ' Check CMS_AGENT_MODEL and OPENAI_BASE_URL.';
  // The provider refused the tool schemas: it runs strict tool calling (OpenAI with a
  // json_schema response_format or the Responses API, Anthropic strict tools).
  if (status === 400 && /schema|strict|additionalProperties|'required'/i.test(message)) {
    return ' The provider wants strict tool schemas: enable `strict: true` on the toolkits (or ChatSession), or run `cms-admin chat --strict`; see docs/providers.md.';
  }
  return ' Check OPENAI_BASE_URL and that the model server is running.';
}
