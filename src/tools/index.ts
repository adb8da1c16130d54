import type { AnyToolDefinition } from './define-tool.js';
import { getCmsCategories } from './taxonomy/get-cms-categories.js';

/** The registry: the only list of tools. Adapters, the CLI and MCP loop over it. */
export const tools: readonly AnyToolDefinition[] = [
  // taxonomy
  getCmsCategories,
  // users
];

export function findTool(name: string): AnyToolDefinition | undefined {
  return tools.find((tool) => tool.name === name);
}

export { callNeedsApproval, defineTool, type AnyToolDefinition, type ToolAnnotations, type ToolContext, type ToolDefinition, type ToolkitName } from './define-tool.js';
export { type ToolOutcome, runTool } from './run-tool.js';
export { type ToolFilter, selectTools } from './select.js';
export { ToolError, type ToolErrorPayload } from './tool-error.js';
