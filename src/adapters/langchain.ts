import { DynamicStructuredTool } from '@langchain/core/tools';
import { type AnyToolDefinition, runTool, type ToolContext } from '../tools/index.js';
import { modelParameters } from './json-schema.js';

/**
 * One registry tool as a LangChain tool. The result is compact JSON text; user-fixable
 * problems come back as `{"error":{code,message,hint}}` so the model can correct its call.
 */
export function toLangChainTool(tool: AnyToolDefinition, context: ToolContext): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: tool.name,
    description: tool.description,
    // JSON schema rather than zod: zod's export carries `$schema`, paid in tokens on every
    // request. runTool validates with the zod schema either way.
    schema: modelParameters(tool),
    metadata: { toolkit: tool.toolkit, annotations: tool.annotations },
    // LangGraph hands each tool the run's config; its signal is the turn's (Ctrl-C, AbortSignal).
    func: async (input: unknown, _runManager, config) => {
      const signal = config?.signal;
      const outcome = await runTool(tool, signal ? { ...context, signal } : context, input);
      return JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error });
    },
  });
}
