import { DynamicStructuredTool } from '@langchain/core/tools';
import { createMiddleware, ToolMessage } from 'langchain';
import {
  ENABLE_TOOLSET,
  type EnableToolsetSpec,
  enableToolset,
  enableToolsetSpec,
  findTool,
  notEnabled,
  resolveToolsets,
  TOOLSET_NAMES,
  type ToolsetName,
} from '../call/index.js';

export interface ToolsetsMiddlewareOptions {
  /** The toolsets a conversation starts with: 'all', names, or unset for the default set. */
  toolsets?: 'all' | string | readonly string[];
  /**
   * The enabled set of a run, changed in place by enable-toolset. Default: one set per
   * LangGraph thread (`configurable.thread_id`; runs without one share a set).
   */
  enabledFor?: (threadId: string | undefined) => Set<ToolsetName>;
}

type ToolLike = { name?: string; metadata?: Record<string, unknown> };
const toolsetOfTool = (tool: unknown): ToolsetName | undefined =>
  ((tool as ToolLike | undefined)?.metadata?.toolset as ToolsetName | undefined) ?? undefined;
const threadOf = (runtime: unknown): string | undefined => {
  const id = (runtime as { configurable?: { thread_id?: unknown } } | undefined)?.configurable?.thread_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

/**
 * Toolsets inside a LangGraph agent (issue #51), LangChain v1's dynamic tools: give createAgent
 * every tool (`allLangChainTools({site, toolsets: 'all'})`); each model request then carries only
 * the enabled toolsets' tools, plus `enable-toolset` (added per request, named as LangChain's
 * AgentNode allows for a tool a `wrapToolCall` middleware runs) while some toolset is not
 * enabled. Its call enables the toolset for the thread: the next model request carries its tools.
 * A call to a tool of a toolset not enabled is answered with an error naming enable-toolset.
 */
export function toolsetsMiddleware(options: ToolsetsMiddlewareOptions = {}) {
  const start = resolveToolsets(options.toolsets);
  const threads = new Map<string, Set<ToolsetName>>();
  const enabledFor =
    options.enabledFor ??
    ((id: string | undefined) => {
      const key = id ?? '';
      const set = threads.get(key) ?? new Set(start);
      threads.set(key, set);
      return set;
    });
  // Each thread's toolsets as its last model request had them (toolset → tool names).
  const present = new Map<string, Map<ToolsetName, string[]>>();
  const offeredOf = (groups: Map<ToolsetName, string[]>, enabled: Set<ToolsetName>) =>
    TOOLSET_NAMES.filter((name) => groups.has(name) && !enabled.has(name));

  return createMiddleware({
    name: 'CmsAdminToolsets',
    wrapModelCall: (request, handler) => {
      const id = threadOf(request.runtime);
      const enabled = enabledFor(id);
      const groups = new Map<ToolsetName, string[]>();
      for (const tool of request.tools) {
        const toolset = toolsetOfTool(tool);
        if (toolset) groups.set(toolset, [...(groups.get(toolset) ?? []), String((tool as ToolLike).name)]);
      }
      present.set(id ?? '', groups);
      const shown = request.tools.filter((tool) => {
        const toolset = toolsetOfTool(tool);
        return !toolset || enabled.has(toolset);
      });
      const spec = enableToolsetSpec(offeredOf(groups, enabled));
      return handler({ ...request, tools: spec ? [...shown, enableToolsetTool(spec)] : shown });
    },
    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const id = threadOf(request.runtime);
      const enabled = enabledFor(id);
      const reply = (body: unknown, ok: boolean) =>
        new ToolMessage({
          content: JSON.stringify(body),
          tool_call_id: toolCall.id ?? '',
          name: toolCall.name,
          status: ok ? 'success' : 'error',
        });
      if (toolCall.name === ENABLE_TOOLSET) {
        const groups = present.get(id ?? '') ?? new Map<ToolsetName, string[]>();
        const outcome = enableToolset(enabled, offeredOf(groups, enabled), toolCall.args, (t) => groups.get(t) ?? []);
        if (!outcome.ok) return reply({ error: outcome.error }, false);
        return reply({ ...outcome.result, note: 'Its tools are offered from your next step on.' }, true);
      }
      const toolset = toolsetOfTool(request.tool);
      const tool = findTool(toolCall.name);
      // The one refusal of every surface (registry/not-enabled.ts), naming enable-toolset.
      if (toolset && tool && !enabled.has(toolset)) return reply({ error: notEnabled(tool, { toolsets: [...enabled], network: true, fleet: true }) }, false);
      return handler(request);
    },
  });
}

/** enable-toolset as a LangChain tool: listed only; the middleware's wrapToolCall answers its calls. */
function enableToolsetTool(spec: EnableToolsetSpec): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: spec.name,
    description: spec.description,
    schema: spec.inputSchema,
    func: async () =>
      JSON.stringify({ error: { code: 'internal_error', message: 'enable-toolset runs in its middleware.' } }),
  });
}
