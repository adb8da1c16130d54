import type { ToolFilter } from '../registry/index.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import type { Approver } from './approval.js';
import type { RawCall } from './check.js';
import { decideCall, OPERATORS_OWN_CALL, type Policy } from './decide.js';
import { resolveCall } from './resolve.js';
import { type ToolOutcome, runTool } from './run-tool.js';

/** Errors in the call itself (exit code 2 in the CLI); everything else is a tool or site error. */
export const USAGE_ERROR_CODES: ReadonlySet<string> = new Set([
  'invalid_json',
  'invalid_envelope',
  'unknown_tool',
  'tool_not_allowed',
  'invalid_params',
  // A setting's value is wrong (CMS_URL without a scheme, CMS_TIMEOUT_MS=abc): fixed before any call can run.
  'invalid_config',
]);

export function isUsageError(outcome: ToolOutcome): boolean {
  return !outcome.ok && USAGE_ERROR_CODES.has(outcome.error.code);
}

const fail = (error: ToolErrorPayload) => ({ ok: false, error }) as const;

/**
 * One call through the whole pipeline, as every surface that needs nothing in between runs it:
 * resolved once (resolve.ts: names to ids, validated, the session's tool), decided (decide.ts:
 * review, then the policy's question), then exactly the decided call run (run-tool.ts).
 */
export async function callTool(raw: RawCall, context: ToolContext, filter: ToolFilter, policy: Policy): Promise<ToolOutcome> {
  const resolved = await resolveCall(raw, context, filter);
  if (!resolved.ok) return resolved;
  const decision = await decideCall(resolved.call, policy);
  return decision.ok ? runTool(decision.call) : decision;
}

/**
 * The spec's invocation envelope: `{ "tool": NAME, "params": {…} }`. Validates the envelope,
 * the tool name and the params before anything reaches WordPress, so a bad call writes nothing.
 * Like `cms-admin invoke`, it is the caller's own call and runs as given; with `approver`, a call
 * that needs a person's approval goes through the same review and question as every surface
 * (docs/safety.md) and runs only when approved.
 */
export async function invoke(
  envelope: unknown,
  context: ToolContext,
  filter: ToolFilter = {},
  options: { approver?: Approver } = {},
): Promise<ToolOutcome> {
  return callTool(envelope, context, filter, options.approver ?? OPERATORS_OWN_CALL);
}

/** Parses envelope JSON text; a syntax error becomes an `invalid_json` outcome. */
export function parseEnvelope(text: string): { ok: true; value: unknown } | { ok: false; outcome: ToolOutcome } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    // Node's parse message quotes the input, which may hold a password: give the position only.
    const position = /position (\d+)/.exec((err as Error).message)?.[1];
    const where = position === undefined ? '' : ` (near character ${position})`;
    return {
      ok: false,
      outcome: fail({
        code: 'invalid_json',
        message: `The input is not valid JSON${where}. Send {"tool": NAME, "params": {…}} with double-quoted keys and strings.`,
      }),
    };
  }
}
