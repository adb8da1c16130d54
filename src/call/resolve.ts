import type { ToolFilter } from '../registry/index.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { toErrorPayload } from '../tools/error-payload.js';
import { parseParams } from '../tools/params.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import { checkCall, invalidParams, type RawCall } from './check.js';
import { resolveNames } from './names.js';

declare const resolvedBrand: unique symbol;

/**
 * One call, resolved once (#58.5): the enabled tool, its params validated with every name where
 * an id goes (a login, an email, a slug) looked up to its id on the site, and that site's context.
 * Review, the question, the dry run, the journal and execute all receive this, never the raw
 * call; only resolveCall makes one (a cast does not: decideCall checks).
 */
export interface ResolvedCall {
  readonly tool: AnyToolDefinition;
  readonly params: Readonly<Record<string, unknown>>;
  readonly context: ToolContext;
  readonly [resolvedBrand]: true;
}

export type Resolution = { ok: true; call: ResolvedCall } | { ok: false; error: ToolErrorPayload };

const made = new WeakSet<object>();

/** Whether this object came from resolveCall (or is a decided call, which did). */
export const isResolved = (value: unknown): value is ResolvedCall => typeof value === 'object' && value !== null && made.has(value);

/** Marks a call this room built from a resolved one (decide.ts). */
export function asResolved<T extends object>(call: T): T {
  made.add(call);
  return call;
}

/**
 * The one step from what a surface received to the call that runs: `checkCall` first (a call
 * refused whatever its names stand for makes no request), then each name looked up on the
 * context's site (`name_not_found`, `name_ambiguous` with the candidates), then the params
 * validated. A call without names costs no request.
 */
export async function resolveCall(raw: RawCall, context: ToolContext, filter: ToolFilter = {}): Promise<Resolution> {
  const checked = checkCall(raw, filter);
  if (!checked.ok) return checked;
  const { tool } = checked;
  let params = checked.params;
  if (checked.named) {
    let named: unknown;
    try {
      named = await resolveNames(tool, context, checked.given);
    } catch (err) {
      const error = toErrorPayload(err);
      if (!error) throw err;
      return { ok: false, error };
    }
    const parsed = parseParams(tool, named);
    if (!parsed.success) return { ok: false, error: invalidParams(tool, parsed.error) };
    params = parsed.data as Record<string, unknown>;
  }
  if (tool.resolveTool) return throughDoor(tool, params, context);
  return { ok: true, call: asResolved({ tool, params, context } as ResolvedCall) };
}

/**
 * A door (a site's ability, `ToolDefinition.resolveTool`): the tool the site defines behind it,
 * read from the call's site, and the params validated with that tool's own schema (an ability's
 * JSON schema), so an input the ability refuses is refused here, before it runs.
 */
async function throughDoor(door: AnyToolDefinition, params: Record<string, unknown>, context: ToolContext): Promise<Resolution> {
  let behind: Awaited<ReturnType<NonNullable<AnyToolDefinition['resolveTool']>>>;
  try {
    behind = await (door.resolveTool as NonNullable<AnyToolDefinition['resolveTool']>)(context, params as never);
  } catch (err) {
    const error = toErrorPayload(err);
    if (!error) throw err;
    return { ok: false, error };
  }
  const parsed = parseParams(behind.tool, behind.params);
  if (!parsed.success) return { ok: false, error: invalidParams(behind.tool, parsed.error) };
  return { ok: true, call: asResolved({ tool: behind.tool, params: parsed.data as Record<string, unknown>, context } as ResolvedCall) };
}
