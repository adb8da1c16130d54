import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Approver } from '../call/index.js';

export interface McpApprovalPolicy {
  /** Approve every call that needs approval (`cms-admin mcp --yes`): the client's own confirmation is the only check. */
  yes?: boolean;
  /** Approve calls of these tools without asking (`--approve TOOL,...`). */
  approve?: readonly string[];
}

/** A person may take a while to answer; the SDK's default request timeout is 60 s. */
const ELICITATION_TIMEOUT_MS = 10 * 60_000;

/**
 * Asks the person at the MCP client, in the middle of the call, with an elicitation request
 * (MCP 2025-06-18) showing what the call will change, read from the site. Only `accept` runs
 * the call. A client that did not declare elicitation cannot ask: the call is refused, saying
 * why, unless the server was started with an approval policy.
 * https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation
 */
export function mcpApprover(server: Server, policy: McpApprovalPolicy, callId?: string | number): Approver {
  return async ({ tool, summary }) => {
    if (policy.yes || policy.approve?.includes(tool)) return { approved: true };
    if (!server.getClientCapabilities()?.elicitation) {
      return {
        approved: false,
        unavailable: true,
        reason: `${tool} needs a person's approval (${summary}), and this MCP client cannot ask one: it did not declare the elicitation capability. Use a client that supports elicitation, or start the server with --yes or --approve ${tool}.`,
      };
    }
    try {
      const answer = await server.elicitInput(
        { mode: 'form', message: `Approve: ${summary}?`, requestedSchema: { type: 'object', properties: {} } },
        // Related to the call: over HTTP the question goes on the call's own stream, whose events
        // a client that lost the connection gets again (Last-Event-ID), not on a GET stream it may not hold.
        { timeout: ELICITATION_TIMEOUT_MS, ...(callId !== undefined && { relatedRequestId: callId }) },
      );
      if (answer.action === 'accept') return { approved: true };
      return { approved: false, reason: answer.action === 'decline' ? 'The person declined.' : 'The person cancelled.' };
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      return { approved: false, unavailable: true, reason: `${tool} needs approval, and asking the person failed (${why}).` };
    }
  };
}
