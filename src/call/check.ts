import type { z } from 'zod';
import { findTool, notEnabled, selectTools, type ToolFilter, tools } from '../registry/index.js';
import type { AnyToolDefinition } from '../tools/define-tool.js';
import { parseParams } from '../tools/params.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import { closestNames } from './closest.js';
import { namesIn, withPlaceholderIds } from './names.js';

/**
 * A call as a surface receives it: the spec's envelope `{"tool": NAME, "params": {…}}` (by name:
 * the session's filter picks the tool), or a tool the surface already holds (a LangChain tool, a
 * fleet's tool with `site`) with its raw params.
 */
export type RawCall = unknown | { tool: AnyToolDefinition; params?: unknown };

export type Checked =
  | {
      ok: true;
      tool: AnyToolDefinition;
      /** Validated, each name where an id goes stood in for by an id no site has (names.ts). */
      params: Record<string, unknown>;
      /** The params as given (names as written): what resolveCall looks up and validates. */
      given: Record<string, unknown>;
      /** Whether `given` names users or terms where ids go (then resolving them reads the site). */
      named: boolean;
    }
  | { ok: false; error: ToolErrorPayload };

const fail = (error: ToolErrorPayload) => ({ ok: false, error }) as const;
const isDefinition = (tool: unknown): tool is AnyToolDefinition =>
  typeof tool === 'object' && tool !== null && typeof (tool as AnyToolDefinition).execute === 'function';

/**
 * What can be said of a call before any request: the envelope's shape, the tool (known, enabled
 * in this session) and its params, each name where an id goes checked as if it were an id. A
 * call refused here is refused whatever its names stand for, so no name is looked up for it.
 */
export function checkCall(raw: RawCall, filter: ToolFilter = {}): Checked {
  const envelope = raw as { tool?: unknown; params?: unknown };
  let tool: AnyToolDefinition;
  if (envelope && isDefinition(envelope.tool)) tool = envelope.tool;
  else {
    const picked = pickTool(raw, filter);
    if (!picked.ok) return picked;
    tool = picked.tool;
  }
  const given = (envelope.params ?? {}) as Record<string, unknown>;
  const objectGiven = typeof given === 'object' && given !== null && !Array.isArray(given);
  const named = objectGiven && namesIn(tool, given);
  const parsed = parseParams(tool, named ? withPlaceholderIds(tool, given) : given);
  if (!parsed.success) return fail(invalidParams(tool, parsed.error));
  return { ok: true, tool, params: parsed.data as Record<string, unknown>, given, named };
}

/** The envelope's tool, enabled in this session; or why not (the envelope's shape, an unknown or a not-enabled tool). */
function pickTool(envelope: unknown, filter: ToolFilter): { ok: true; tool: AnyToolDefinition } | { ok: false; error: ToolErrorPayload } {
  if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope)) {
    return fail({ code: 'invalid_envelope', message: 'The envelope must be a JSON object: {"tool": NAME, "params": {…}}.' });
  }
  const { tool: name, params, ...extra } = envelope as Record<string, unknown>;
  const extraKeys = Object.keys(extra);
  if (extraKeys.length) {
    return fail({
      code: 'invalid_envelope',
      message: `Unknown envelope member(s): ${extraKeys.join(', ')}. The envelope has only "tool" and "params".`,
    });
  }
  if (typeof name !== 'string' || name === '') {
    return fail({ code: 'invalid_envelope', message: 'The envelope needs "tool": a tool name string.', hint: 'Run `cms-admin tools` to list them.' });
  }
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    return fail({ code: 'invalid_envelope', message: '"params" must be a JSON object of the tool\'s parameters.' });
  }
  const tool = findTool(name);
  if (!tool) {
    const close = closestNames(
      name,
      tools.map((t) => t.name),
    );
    return fail({
      code: 'unknown_tool',
      message: `Unknown tool "${name}".`,
      hint: close.length ? `Did you mean: ${close.join(', ')}?` : 'Run `cms-admin tools` to list them.',
    });
  }
  // Selected from the whole registry: an allowlist names other tools too (and its unknown names
  // are an error of the filter, not of this call).
  // The network-only tools check the site when they run (users/network.ts), so a session that has
  // not asked the site yet may call them; list-users and delete-user keep their single-site forms
  // unless the session knows it is on a network (`network: true`).
  const enabled =
    filter.network === undefined && tool.network && (!filter.toolsets || filter.toolsets.includes('network'))
      ? tool
      : selectTools(tools, filter).find((t) => t.name === name);
  if (!enabled) return fail(notEnabled(tool, filter));
  return { ok: true, tool: enabled };
}

export function invalidParams(tool: AnyToolDefinition, error: z.ZodError): ToolErrorPayload {
  const problems = error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : 'params';
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    // null reaches the schema only for a required param (params.ts drops it for optional ones).
    if (issue.code === 'invalid_type' && /received null$/.test(issue.message)) {
      return `${where}: is required (null means "not given")`;
    }
    return `${where}: ${issue.message}${keys}`;
  });
  const known = Object.keys(tool.schema.shape);
  return {
    code: 'invalid_params',
    message: `Invalid params for ${tool.name}: ${problems.join('; ')}`,
    hint: known.length ? `${tool.name} takes: ${known.join(', ')}.` : `${tool.name} takes no params.`,
  };
}
