import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import {
  type AnyToolDefinition,
  type Approver,
  closestNames,
  decideCall,
  ENABLE_TOOLSET,
  findTool,
  type Fleet,
  fleetTools,
  isDryRun,
  isFleet,
  resolveCall,
  runOnFleet,
  runTool,
  type ToolContext,
  type ToolErrorPayload,
  type ToolFilter,
  tools,
  ToolsetSession,
  whyNotEnabled,
} from '../call/index.js';
import { previewOutput } from '../tools/output-schemas.js';
import { enableToolsetListing, type McpTool, mcpToolList } from './tool-list.js';

export type { McpTool };

/** What `createMcpServer` offers (the options both protocol revisions share). */
export interface ToolHandlerOptions {
  /** List strict-ready input schemas (for clients that pass them to a strict provider). */
  strict?: boolean;
  /**
   * The session's toolsets (issue #51), when the caller keeps them across requests (a stateless
   * 2026-07-28 server keeps one per person); default a new one from `filter.toolsets`.
   */
  toolsets?: ToolsetSession;
  /** Told after enable-toolset changed the list (MCP's notifications/tools/list_changed). */
  onToolsChanged?: () => Promise<void> | void;
  /**
   * The site's abilities made tools of their own (`mcp --abilities`, docs/abilities.md): listed
   * whatever toolsets are enabled (a read-only session keeps the read-only ones); each call resolves
   * to the ability on the session's site.
   */
  siteTools?: readonly AnyToolDefinition[];
}

export interface McpToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/**
 * The tools over MCP, whatever the protocol revision: `list()` is tools/list's tools (the
 * registry's order: deterministic), `call()` is one tools/call through the envelope, the one
 * approval path (`decideCall` with the revision's approver) and `runTool`. A tool this server
 * does not list is thrown as a JSON-RPC -32602; everything else is a result.
 */
export interface ToolHandlers {
  list(): McpTool[];
  call(name: string, params: Record<string, unknown> | undefined, approver: Approver, signal?: AbortSignal): Promise<McpToolResult>;
}

export function toolHandlers(context: ToolContext | Fleet, filter: ToolFilter = {}, options: ToolHandlerOptions = {}): ToolHandlers {
  // Several sites (#38): every tool takes `site`, list-sites is listed, answers are per site.
  const fleet = isFleet(context) ? context : undefined;
  // This session's toolsets (issue #51): `filter.toolsets` to start (unset: the default set);
  // enable-toolset adds one and the client is told the list changed.
  const toolsets = options.toolsets ?? new ToolsetSession(tools, fleet ? { ...filter, fleet: true } : filter);
  // The tools/list of this session: built here for both revisions, per call of list() (the
  // enabled toolsets change it), with the chosen site abilities after the registry's.
  const siteTools = (options.siteTools ?? []).filter((tool) => !filter.readOnly || tool.annotations.readOnly);
  const listed = () => (fleet ? fleetTools([...toolsets.tools(), ...siteTools]) : [...toolsets.tools(), ...siteTools]);
  return {
    // Built once per selection and kept (tool-list.ts); enable-toolset changes the selection. The
    // site's abilities made tools (created once, at start) are part of it, after the registry's.
    list: () => mcpToolList([...toolsets.tools(), ...siteTools], { strict: Boolean(options.strict), fleet: Boolean(fleet) }, enableToolsetListing(toolsets.enableTool())),
    async call(name, params, approver, signal) {
      if (name === ENABLE_TOOLSET && toolsets.enableTool()) {
        const outcome = toolsets.enable(params ?? {});
        if (!outcome.ok) return errorResult(outcome.error);
        await options.onToolsChanged?.();
        const result = { ...outcome.result, note: 'The client was sent notifications/tools/list_changed.' };
        return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result, isError: false };
      }
      const selected = listed();
      if (fleet) {
        const tool = selected.find((t) => t.name === name);
        if (!tool) throw unlistedTool(name, selected, findTool(name) ? 'tool_not_allowed' : 'unknown_tool', toolsets);
        const outcome = await runOnFleet(tool, fleet, params ?? {}, approver, signal);
        if (!outcome.ok) return errorResult(outcome.error);
        return { content: [{ type: 'text' as const, text: JSON.stringify(outcome.result) }], isError: false };
      }
      // The pipeline (call/): the envelope's checks, so a bad call gets the same message here as
      // from `cms-admin invoke`; names where ids go looked up; then decided and run as decided.
      // A site's ability made a tool is not in the registry: the call names its definition.
      const siteTool = siteTools.find((tool) => tool.name === name);
      const envelope = siteTool ? { tool: siteTool, params: params ?? {} } : params === undefined ? { tool: name } : { tool: name, params };
      const site = context as ToolContext;
      const resolved = await resolveCall(envelope, signal ? { ...site, signal } : site, toolsets.filter);
      if (!resolved.ok) {
        // A name this server does not list is an error of the protocol (MCP's tools error handling:
        // -32602), so a client may refresh its list; bad arguments of a listed tool stay an isError
        // result, which the model reads and fixes.
        if (resolved.error.code === 'unknown_tool' || resolved.error.code === 'tool_not_allowed')
          throw unlistedTool(name, selected, resolved.error.code, toolsets);
        return errorResult(resolved.error);
      }
      const call = resolved.call;
      const { tool } = call;
      const decision = await decideCall(call, approver);
      if (!decision.ok) return errorResult(decision.error);
      // Exactly the decided call: the params the question named (a resolved change_id), ids for names.
      const outcome = await runTool(decision.call);
      if (!outcome.ok) return errorResult(outcome.error);
      // structuredContent for clients of MCP 2025-06-18+, the same JSON as text for older ones.
      const result = outcome.result as Record<string, unknown>;
      const schema = isDryRun(call.params) ? previewOutput : tool.outputSchema;
      if (!schema) return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], isError: false };
      if (!schema.safeParse(result).success) {
        // Only the answer budget's last resort ({cut}) can miss the schema: the call ran, but
        // its answer is not there to send. Said as an error, naming that the call did run.
        return errorResult({
          code: 'answer_too_large',
          message: `${name} ran, but its answer does not fit the answer budget: ${String(result.cut ?? 'no details')}`,
          hint: tool.annotations.readOnly ? 'Narrow the call (limit, search).' : 'Read the site back with a list tool to see the result.',
        });
      }
      return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result, isError: false };
    },
  };
}

/** JSON-RPC InvalidParams naming the tool and the closest names this server lists. */
function unlistedTool(
  name: string,
  listed: readonly AnyToolDefinition[],
  code: 'unknown_tool' | 'tool_not_allowed',
  toolsets: ToolsetSession,
) {
  const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
  const close = closestNames(
    name,
    listed.map((tool) => tool.name),
  );
  // Why it is not listed, from the one place every surface says it (registry/not-enabled.ts).
  const registered = findTool(name);
  const refused = code === 'tool_not_allowed' && registered ? whyNotEnabled(registered, toolsets.filter) : undefined;
  const why = refused ? `not listed: ${refused.why}. ${refused.hint}` : 'no such tool.';
  const message = `Unknown tool "${shown}": ${why} ${close.length ? `Closest listed: ${close.join(', ')}.` : 'See tools/list.'}`;
  // A plain error with code and data: the SDK sends them as they are (McpError would prefix
  // "MCP error -32602:" to the message, and the client's McpError prefixes it again).
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams, data: { code, tool: shown, closest: close } });
}

export function errorResult(error: ToolErrorPayload): McpToolResult {
  return { content: [{ type: 'text' as const, text: JSON.stringify({ error }) }], isError: true };
}
