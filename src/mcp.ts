import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describeTool, modelParameters } from './adapters/json-schema.js';
import { invoke } from './envelope.js';
import { selectTools, type ToolContext, type ToolFilter, tools } from './tools/index.js';

const VERSION = '0.1.0';

export interface McpServerOptions {
  /** List strict-ready input schemas (for clients that pass them to a strict provider). */
  strict?: boolean;
}

/**
 * An MCP server over the same registry: every tool with its JSON schema and annotations
 * (readOnlyHint, destructiveHint, idempotentHint). Calls go through the envelope, so a bad
 * call gets the same message here as from `cms-admin invoke`, as an `isError` result.
 */
export function createMcpServer(context: ToolContext, filter: ToolFilter = {}, options: McpServerOptions = {}): Server {
  const selected = selectTools(tools, filter);
  const server = new Server({ name: 'cms-admin-toolkit', version: VERSION }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: selected.map((tool) => {
      const described = describeTool(tool);
      return {
        name: described.name,
        description: described.description,
        inputSchema: (options.strict ? modelParameters(tool, { strict: true }) : described.inputSchema) as {
          type: 'object';
          [key: string]: unknown;
        },
        annotations: {
          readOnlyHint: tool.annotations.readOnly,
          destructiveHint: tool.annotations.destructive,
          idempotentHint: tool.annotations.idempotent,
          openWorldHint: false,
        },
      };
    }),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: params } = request.params;
    const outcome = await invoke(params === undefined ? { tool: name } : { tool: name, params }, context, filter);
    const payload = outcome.ok ? outcome.result : { error: outcome.error };
    return { content: [{ type: 'text' as const, text: JSON.stringify(payload) }], isError: !outcome.ok };
  });
  return server;
}

export async function serveStdio(
  context: ToolContext,
  filter: ToolFilter = {},
  options: McpServerOptions = {},
): Promise<void> {
  const server = createMcpServer(context, filter, options);
  await server.connect(new StdioServerTransport());
}
