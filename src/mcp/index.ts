import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AnyToolDefinition, Fleet, ToolContext, ToolFilter } from '../call/index.js';
import { type McpApprovalPolicy, mcpApprover } from './approvals.js';
import { toolHandlers } from './tool-handlers.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';

export type { McpApprovalPolicy };

const VERSION = '0.1.0';

export interface McpServerOptions {
  /** List strict-ready input schemas (for clients that pass them to a strict provider). */
  strict?: boolean;
  /**
   * Calls whose review requires approval: asked of the person through MCP elicitation when the
   * client declared it; otherwise refused, unless approved here (`--yes`, `--approve`).
   */
  approvals?: McpApprovalPolicy;
  /** The site's abilities made tools of their own (`mcp --abilities`; `abilityTools()`). */
  siteTools?: readonly AnyToolDefinition[];
}

/**
 * An MCP server over the same registry: every tool with its JSON schema and annotations
 * (readOnlyHint, destructiveHint, idempotentHint). Calls go through the envelope, so a bad
 * call gets the same message here as from `cms-admin invoke`, as an `isError` result; a tool
 * this server does not list is a JSON-RPC error (-32602).
 */
export function createMcpServer(
  context: ToolContext | Fleet,
  filter: ToolFilter = {},
  options: McpServerOptions = {},
): Server {
  // The handlers' toolsets are this session's; enable-toolset tells the client the list changed.
  let server: Server | undefined;
  const handlers = toolHandlers(context, filter, { ...options, onToolsChanged: () => server?.sendToolListChanged() });
  server = new Server({ name: 'cms-admin-toolkit', version: VERSION }, { capabilities: { tools: { listChanged: true } } });
  const session = server;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: handlers.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const approver = mcpApprover(session, options.approvals ?? {}, extra.requestId);
    return handlers.call(request.params.name, request.params.arguments, approver, extra.signal);
  });
  return session;
}

/**
 * Over stdio, both protocol revisions (the SDK's `serveStdio` decides per connection): a client
 * that opens with `initialize` (2025-11-25 and before) gets the server above, exactly as before;
 * one that opens with `server/discover` or an enveloped request gets the 2026-07-28 server
 * (`modern.ts`), stateless, with approvals as `input_required`.
 */
export async function serveStdio(
  context: ToolContext | Fleet,
  filter: ToolFilter = {},
  options: McpServerOptions = {},
): Promise<void> {
  const [{ serveStdio: serveBoth }, { createModernServer, modernServing }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('./modern.js'),
  ]);
  const serving = modernServing();
  serveBoth(({ era }) =>
    era === 'legacy'
      ? // The 2025 server of SDK 1.x: its sessions, elicitation and wire stay as they were.
        // serveStdio pins it to the connection through its connect(transport), as it does its own.
        (createMcpServer(context, filter, options) as unknown as ModernServer)
      : createModernServer(context, filter, options, serving),
  );
}
