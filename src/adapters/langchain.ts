import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import {
  type AnyToolDefinition,
  type Approver,
  approveAll,
  callTool,
  checkCall,
  type Fleet,
  isFleet,
  runOnFleet,
  type ToolContext,
  takesNames,
  TOOLSET_OF,
} from '../call/index.js';
import { isOptional, normalizeParams } from '../tools/params.js';
import { interruptApprover } from './interrupt.js';
import { modelParameters, type SchemaOptions } from './json-schema.js';

/**
 * Who approves a call whose review requires it (docs/safety.md): `'interrupt'` pauses the run
 * with a LangGraph interrupt (interrupt.ts); an Approver decides in-process; `'none'` runs every
 * call (the app takes responsibility). Unset: such calls are refused, nothing is written.
 */
export type Approvals = 'interrupt' | 'none' | Approver;

export interface LangChainToolOptions extends SchemaOptions {
  approvals?: Approvals;
}

const noApprover: Approver = async ({ tool, summary }) => ({
  approved: false,
  unavailable: true,
  reason: `${tool} needs a person's approval (${summary}), and these tools were built without the \`approvals\` option, so no one can be asked. Set approvals: 'interrupt' (LangGraph interrupt) or an Approver function on the toolkit; 'none' only if the app takes responsibility.`,
});

function approverFor(approvals: Approvals | undefined): Approver {
  if (approvals === 'interrupt') return interruptApprover;
  if (approvals === 'none') return approveAll;
  return approvals ?? noApprover;
}

/**
 * One registry tool as a LangChain tool. The result is compact JSON text; user-fixable
 * problems come back as `{"error":{code,message,hint}}` so the model can correct its call.
 * On a Fleet (several sites, #38) pass the tools of `fleetTools()`: each call's `site` picks
 * the sites and the pipeline answers per site (call/fleet.ts).
 */
export function toLangChainTool(
  tool: AnyToolDefinition,
  context: ToolContext | Fleet,
  options: LangChainToolOptions = {},
): DynamicStructuredTool {
  return new RegistryTool(tool, context, options);
}

/** The question carries the model's tool-call id: a LangGraph resume is matched to its call by it (interrupt.ts). */
const forCall = (approver: Approver, id: unknown): Approver =>
  typeof id === 'string' && id ? (request) => approver({ ...request, tool_call_id: id }) : approver;

type ToolCallShape = { type: 'tool_call'; id?: string; name: string; args: unknown };
const isToolCall = (arg: unknown): arg is ToolCallShape =>
  typeof arg === 'object' && arg !== null && (arg as { type?: unknown }).type === 'tool_call';

/**
 * What a LangChain tool of ours runs on and who approves its calls: read by `approvalInterruptOn`
 * (hitl.ts), which reviews calls for LangChain's humanInTheLoopMiddleware and binds the tool's
 * approver to what the middleware asked (#52.14).
 */
export interface RegistryToolBinding {
  tool: AnyToolDefinition;
  context: ToolContext | Fleet;
  approver: Approver;
}
const bindings = new WeakMap<object, RegistryToolBinding>();
/** The binding of one of our LangChain tools; undefined for any other tool. */
export const registryToolBinding = (tool: object): RegistryToolBinding | undefined => bindings.get(tool);

class RegistryTool extends DynamicStructuredTool {
  readonly #tool: AnyToolDefinition;
  readonly #strict: boolean;

  constructor(tool: AnyToolDefinition, context: ToolContext | Fleet, options: LangChainToolOptions) {
    const binding: RegistryToolBinding = { tool, context, approver: approverFor(options.approvals) };
    super({
      name: tool.name,
      description: tool.description,
      // JSON schema rather than zod: zod's export carries `$schema`, paid in tokens on every
      // request. The pipeline validates with the zod schema either way.
      schema: modelParameters(tool, options),
      metadata: { toolkit: tool.toolkit, toolset: TOOLSET_OF[tool.name], annotations: tool.annotations },
      // LangGraph hands each tool the run's config; its signal is the turn's (Ctrl-C, AbortSignal).
      func: async (input: unknown, _runManager, config) => {
        const signal = config?.signal;
        const approver = forCall(binding.approver, (config as { toolCall?: { id?: unknown } } | undefined)?.toolCall?.id);
        if (isFleet(context)) {
          const outcome = await runOnFleet(tool, context, input, approver, signal);
          return JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error });
        }
        const callContext = signal ? { ...context, signal } : context;
        // The pipeline (call/): resolved once (names to ids), decided (an interrupt propagates to
        // LangGraph from the approver), then exactly the decided call run.
        const outcome = await callTool({ tool, params: input }, callContext, {}, approver);
        return JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error });
      },
    });
    this.#tool = tool;
    this.#strict = Boolean(options.strict);
    bindings.set(this, binding);
  }

  /**
   * LangChain checks the model's arguments against the JSON schema before `func` runs and
   * answers a mismatch with a bare "did not match expected schema". Our own step goes first:
   * nulls, "" enums and numbers-as-strings are read (params.ts), and a call our schema refuses
   * gets our invalid_params error (what is wrong, what the tool takes) as its result.
   */
  override async call(arg: unknown, configArg?: unknown, tags?: string[]): Promise<never> {
    const args = isToolCall(arg) ? arg.args : arg;
    // Names where ids go (a login, a slug) are checked as ids here and looked up in `func`.
    const checked = checkCall({ tool: this.#tool, params: args });
    if (!checked.ok) {
      const content = JSON.stringify({ error: checked.error });
      // invoke() passes a tool call's id in the config; call() may get the tool call itself.
      const id = isToolCall(arg) ? arg.id : (configArg as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
      return (id ? new ToolMessage({ content, tool_call_id: id, name: this.name }) : content) as never;
    }
    const fitted = this.#fit(normalizeParams(this.#tool.schema, args ?? {}) as Record<string, unknown>);
    return super.call((isToolCall(arg) ? { ...arg, args: fitted } : fitted) as never, configArg as never, tags) as never;
  }

  /**
   * The normalized args in the shape the JSON schema wants: an id given as a number where a name
   * may go is its string (names.ts `namedSchema`); strict lists every param (null = not given).
   */
  #fit(args: Record<string, unknown>): Record<string, unknown> {
    const out = { ...args };
    const asText = (v: unknown) => (typeof v === 'number' ? String(v) : v);
    for (const [key, value] of Object.entries(out)) {
      if (!takesNames(this.#tool, key)) continue;
      out[key] = Array.isArray(value) ? value.map(asText) : asText(value);
    }
    // A JSON value where the model was told to send text (run-ability's `input`, JSON text) is
    // that text: LangChain checks the model's args against the JSON schema before `func` runs.
    const properties = ((this.schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}) as Record<string, { type?: unknown }>;
    for (const [key, value] of Object.entries(out)) {
      const types = [properties[key]?.type].flat();
      if (value !== null && typeof value === 'object' && types.includes('string') && !types.includes('object')) out[key] = JSON.stringify(value);
    }
    if (!this.#strict) return out;
    for (const [key, field] of Object.entries(this.#tool.schema.shape)) {
      if (!(key in out) && isOptional(field as never)) out[key] = null;
    }
    return out;
  }
}
