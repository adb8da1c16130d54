import { z } from 'zod';
import type { AnyToolDefinition } from '../tools/index.js';

export interface ToolDescription {
  name: string;
  toolkit: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: AnyToolDefinition['annotations'];
}

/** A tool as plain JSON: what `cms-admin tools --json` prints and what MCP lists. */
export function describeTool(tool: AnyToolDefinition): ToolDescription {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  return {
    name: tool.name,
    toolkit: tool.toolkit,
    description: tool.description,
    inputSchema,
    annotations: tool.annotations,
  };
}
