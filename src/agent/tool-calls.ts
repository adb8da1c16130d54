import { createMiddleware, ToolMessage } from 'langchain';
import { type AnyToolDefinition, checkCall, ENABLE_TOOLSET, type ToolErrorPayload } from '../call/index.js';
import { maskResetKeys } from '../redact.js';
import type { ToolResultLedger } from './messages.js';

function isErrorContent(content: unknown): boolean {
  if (typeof content !== 'string' || !content.startsWith('{"error":')) return false;
  try {
    return typeof JSON.parse(content).error === 'object';
  } catch {
    return false;
  }
}

function errorMessage(toolCallId: string, name: string, error: ToolErrorPayload): ToolMessage {
  return new ToolMessage({ content: JSON.stringify({ error }), tool_call_id: toolCallId, name, status: 'error' });
}

/**
 * Every tool call of the agent goes through here, one call at a time:
 * - unknown tool or invalid arguments → a short error the model can act on (LangChain's own
 *   message for a schema mismatch carries a JS stack trace);
 * - a bug in a tool → a short `tool_failed` result, no stack.
 * Approvals are decided inside each tool (adapters/langchain.ts, the one path every surface
 * uses), so every tool call always gets exactly one result, also when one of several parallel
 * calls is rejected (langchainjs#11125: with humanInTheLoopMiddleware the other calls were
 * dropped and the next model request was invalid).
 */
type WrapToolCall = NonNullable<Parameters<typeof createMiddleware>[0]['wrapToolCall']>;

export function toolCallMiddleware(tools: readonly AnyToolDefinition[], ledger?: ToolResultLedger) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return createMiddleware({
    name: 'CmsAdminToolCalls',
    // The ledger keeps results that arrive after a cancelled turn stopped listening (runner.ts).
    wrapToolCall: (request, handler) => {
      const call = oneCall(request, handler);
      return ledger ? ledger.track(request.toolCall.id ?? '', call) : call;
    },
  });

  async function oneCall(
    request: Parameters<WrapToolCall>[0],
    handler: Parameters<WrapToolCall>[1],
  ): Promise<Awaited<ReturnType<WrapToolCall>>> {
      const { toolCall } = request;
      const id = toolCall.id ?? '';
      // Answered by toolsetsMiddleware (toolsets.ts), whichever of the two runs first.
      if (toolCall.name === ENABLE_TOOLSET && !byName.has(ENABLE_TOOLSET)) return handler(request);
      const tool = byName.get(toolCall.name);
      if (!tool || !request.tool) {
        return errorMessage(id, toolCall.name, {
          code: 'unknown_tool',
          message: `There is no tool "${toolCall.name}" in this session.`,
          hint: `Available: ${[...byName.keys()].join(', ')}.`,
        });
      }
      // Names where ids go (a login, a slug) are checked as ids; the tool looks them up (call/names.ts).
      const checked = checkCall({ tool, params: toolCall.args });
      if (!checked.ok) return errorMessage(id, tool.name, checked.error);
      try {
        const result = await handler(request);
        // Tool-level errors come back as `{"error":…}` content: mark them so traces and
        // models see a failed call, not a success.
        if (ToolMessage.isInstance(result) && isErrorContent(result.content)) result.status = 'error';
        return result;
      } catch (err) {
        // LangGraph's interrupt (a tool asking for approval in a graph with a checkpointer) pauses the run: not a failure.
        if ((err as { is_bubble_up?: unknown } | undefined)?.is_bubble_up === true) throw err;
        // A bug in a tool: tell the model briefly, without stack or file paths.
        if (process.env.CMS_DEBUG) process.stderr.write(`${maskResetKeys(String((err as Error)?.stack ?? err))}\n`);
        return errorMessage(id, tool.name, {
          code: 'tool_failed',
          message: `${tool.name} failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
        });
      }
  }
}
