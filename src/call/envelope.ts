import { findTool, selectTools, type ToolFilter, tools } from '../registry/index.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import { type Approver, decideCall } from './approval.js';
import { invalidParams, type ToolOutcome, runTool } from './run-tool.js';
import { parseParams } from '../tools/params.js';
import { toErrorPayload } from '../tools/error-payload.js';
import { namesIn, resolveNames, withPlaceholderIds } from './names.js';

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

export type ResolvedCall =
  | { ok: true; tool: AnyToolDefinition; params: Record<string, unknown> }
  | { ok: false; error: ToolErrorPayload };

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
  const named = await withIds(envelope, context, filter);
  if (!named.ok) return named;
  const call = resolveCall(named.envelope, filter);
  if (!call.ok) return call;
  if (options.approver) {
    const decision = await decideCall(call.tool, context, call.params, options.approver);
    if (!decision.ok) return decision;
    // The params the question named (a resolved change_id), not the call's own.
    if (decision.params) return runTool(call.tool, context, decision.params);
  }
  return runTool(call.tool, context, call.params);
}

/**
 * The envelope with each name where an id goes stood in for by an id no site has (names.ts), to
 * validate a call whose names are looked up later on each of several sites (`invoke --sites`).
 */
export function withPlaceholders(envelope: unknown): unknown {
  if (!hasNames(envelope)) return envelope;
  const { tool: name, params } = envelope as { tool: string; params: unknown };
  return { ...(envelope as object), params: withPlaceholderIds(findTool(name) as AnyToolDefinition, params) };
}

/** Whether the envelope gives a login, email or slug where its tool takes an id. */
export function hasNames(envelope: unknown): boolean {
  const { tool: name, params } = (envelope ?? {}) as { tool?: unknown; params?: unknown };
  const tool = typeof name === 'string' ? findTool(name) : undefined;
  return Boolean(tool && params && typeof params === 'object' && !Array.isArray(params) && namesIn(tool, params as Record<string, unknown>));
}

/**
 * The envelope with the names its params give for ids (a login, an email, a term's slug) looked
 * up on the context's site (names.ts); the same envelope when it has none (no request). A call
 * that would be refused whatever the names stand for (another param invalid, a tool the session
 * does not offer) is refused first, before any request.
 */
export async function withIds(
  envelope: unknown,
  context: ToolContext,
  filter: ToolFilter = {},
): Promise<{ ok: true; envelope: unknown } | { ok: false; error: ToolErrorPayload }> {
  const { tool: name, params } = (envelope ?? {}) as { tool?: unknown; params?: unknown };
  const tool = typeof name === 'string' ? findTool(name) : undefined;
  if (!tool || !params || typeof params !== 'object' || Array.isArray(params)) return { ok: true, envelope };
  if (!namesIn(tool, params as Record<string, unknown>)) return { ok: true, envelope };
  const unnamed = resolveCall({ ...(envelope as object), params: withPlaceholderIds(tool, params) }, filter);
  if (!unnamed.ok) return unnamed;
  try {
    const resolved = await resolveNames(tool, context, params);
    return { ok: true, envelope: resolved === params ? envelope : { ...(envelope as object), params: resolved } };
  } catch (err) {
    const error = toErrorPayload(err);
    if (!error) throw err;
    return { ok: false, error };
  }
}

/**
 * One call's raw params with their names (a login, an email, a slug where an id goes) looked up
 * on the context's site (names.ts): every surface's step before validation — LangChain tools,
 * MCP, the envelope, each site of several. Params without names come back as they are, without a
 * request; params invalid whatever their names stand for are refused before any request;
 * an unknown or ambiguous name is its error (`name_not_found`, `name_ambiguous`), listing candidates.
 */
export async function withNames(
  tool: AnyToolDefinition,
  context: ToolContext,
  raw: unknown,
): Promise<{ ok: true; params: unknown } | { ok: false; error: ToolErrorPayload }> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !namesIn(tool, raw as Record<string, unknown>)) return { ok: true, params: raw };
  const unnamed = parseParams(tool, withPlaceholderIds(tool, raw));
  if (!unnamed.success) return fail(invalidParams(tool, unnamed.error));
  try {
    return { ok: true, params: await resolveNames(tool, context, raw) };
  } catch (err) {
    const error = toErrorPayload(err);
    if (!error) throw err;
    return { ok: false, error };
  }
}

/** The params checked as if each name were an id: what a call's validation says before its names are looked up. */
export function parseWithNames(tool: AnyToolDefinition, raw: unknown) {
  return parseParams(tool, withPlaceholderIds(tool, raw));
}

/** Checks an envelope without running it: which tool, with which validated params. */
export function resolveCall(envelope: unknown, filter: ToolFilter = {}): ResolvedCall {
  if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope)) {
    return fail({
      code: 'invalid_envelope',
      message: 'The envelope must be a JSON object: {"tool": NAME, "params": {…}}.',
    });
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
    return fail({
      code: 'invalid_envelope',
      message: 'The envelope needs "tool": a tool name string.',
      hint: 'Run `cms-admin tools` to list them.',
    });
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
  if (!enabled) {
    return fail({
      code: 'tool_not_allowed',
      message: `Tool "${name}" is not enabled in this session${filter.readOnly ? ' (read-only mode)' : ''}.`,
    });
  }
  const parsed = parseParams(enabled, params);
  if (!parsed.success) return fail(invalidParams(enabled, parsed.error));
  return { ok: true, tool: enabled, params: parsed.data as Record<string, unknown> };
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

export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const wanted = name.toLowerCase();
  const within = (candidate: string) => Math.max(3, Math.floor(candidate.length / 2));
  const scored = candidates
    // The distance is at least the difference in length; checking that first keeps a huge
    // name (a 1 MB "tool") from costing seconds of Levenshtein against every tool.
    .filter((candidate) => Math.abs(wanted.length - candidate.length) <= within(candidate))
    .map((candidate) => ({ candidate, distance: levenshtein(wanted, candidate) }))
    .filter(({ candidate, distance }) => distance <= within(candidate))
    .sort((a, b) => a.distance - b.distance);
  return scored.slice(0, max).map(({ candidate }) => candidate);
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
