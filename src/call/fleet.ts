import { z } from 'zod';
import { redactSecrets } from '../redact.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { answerBudget, enforceBudget, MIN_ANSWER_BUDGET } from '../tools/answers/budget.js';
import { listOfNames, normalizeParams } from '../tools/params.js';
import { typeOnly } from '../tools/schema.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import type { Approver } from './approval.js';
import { checkCall } from './check.js';
import { decideCall } from './decide.js';
import { callTool } from './envelope.js';
import { type FleetAnswer, fanOutSites, fleetWrite, namingSite, type SiteResult, siteResult } from './fleet-write.js';
import { fanOut } from './fan-out.js';
import { type ResolvedCall, resolveCall } from './resolve.js';
import { runTool, type ToolOutcome } from './run-tool.js';

/**
 * A session on several sites (issue #38): the site is a parameter of the call pipeline, not
 * of each tool. Every tool gets `site` (fleetTools); a call resolves it to sites, runs on each
 * with that site's own context (client, journal, secrets) and answers per site. A write on
 * more than one site asks one question (fleet-write.ts). With one site none of this is used.
 */
export interface FleetSite {
  name: string;
  url: string;
  groups: readonly string[];
  username: string;
  context: ToolContext;
}

export interface Fleet {
  sites: readonly FleetSite[];
  /** Sites at once (default 8). */
  concurrency?: number;
}

export const isFleet = (target: ToolContext | Fleet): target is Fleet => Array.isArray((target as Fleet).sites);

export const SITE = 'site';
// No description and no minLength in its JSON: `site` is sent with every tool on every request
// (11 tokens a tool this way, 30 with a description); list-sites' description says it once.
// A JSON list of names is taken too (params.ts `listOfNames`): `["a","b"]` is "a,b".
const siteParam = listOfNames(z.string().trim().min(1).meta(typeOnly));

const bases = new WeakMap<AnyToolDefinition, AnyToolDefinition>();

/** The tools of a several-site session: each takes `site` (required); list-sites runs once. */
export function fleetTools(selected: readonly AnyToolDefinition[]): AnyToolDefinition[] {
  return selected.map((tool) => {
    if (tool.fleet) return tool;
    const withSite = { ...tool, schema: tool.schema.safeExtend({ [SITE]: siteParam }), ...(tool.inputJsonSchema && { inputJsonSchema: withSiteProperty(tool.inputJsonSchema) }) } as AnyToolDefinition;
    bases.set(withSite, tool);
    return withSite;
  });
}

/** A site ability's own JSON schema (ToolDefinition.inputJsonSchema) with `site`, as the zod schema has it. */
function withSiteProperty(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = { ...(schema.properties as Record<string, unknown> | undefined), [SITE]: { type: 'string' } };
  return { ...schema, properties, required: [...((schema.required as string[] | undefined) ?? []), SITE] };
}

/**
 * Runs one call of a several-site session: `params.site` picks the sites; reads and dry runs
 * run on each, a write on one site goes through its own review as for one site, a write on
 * several asks one question first. The answer is `{sites: [{site, ok, result|error}]}`, each
 * redacted with every site's secrets and the whole within the answer budget.
 */
export async function runOnFleet(
  tool: AnyToolDefinition,
  fleet: Fleet,
  raw: unknown,
  approver: Approver,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const secrets = fleet.sites.flatMap((s) => s.context.secrets ?? []);
  const first = fleet.sites[0];
  if (!first) return { ok: false, error: { code: 'invalid_config', message: 'This session has no sites.' } };
  const budget = answerBudget(first.context);
  // Names where ids go are checked as ids here, then looked up on each site (its own ids).
  const checked = checkCall({ tool, params: raw });
  if (!checked.ok) return checked;
  if (tool.fleet) {
    const info = fleet.sites.map(({ context, ...site }) => ({ ...site, client: context.client }));
    const context = { ...first.context, fleet: info, ...(signal && { signal }), client: localClient(first) };
    return redactSecrets(await callTool({ tool, params: checked.given }, context, {}, approver), secrets);
  }
  const base = bases.get(tool) ?? tool;
  const { [SITE]: spec, ...params } = checked.params;
  const picked = pickSites(fleet, String(spec));
  if ('error' in picked) return { ok: false, error: picked.error };
  // Each site's answer gets its share of the budget: the whole answer stays within it.
  const share = Math.max(MIN_ANSWER_BUDGET, Math.floor(budget / picked.length));
  const write = !base.annotations.readOnly && params.dry_run !== true;
  const runId = write ? newRunId() : undefined;
  const contexts = picked.map((s) => ({
    name: s.name,
    context: { ...s.context, answerBudget: share, ...(signal && { signal }), ...(runId && { runId }) },
  }));
  const concurrency = fleet.concurrency ?? 8;
  // The call resolved on each site (call/resolve.ts): a login, an email or a slug where an id goes
  // is looked up there (its own ids); a site where a name is unknown or ambiguous answers that
  // error and is neither asked nor written.
  const own = withoutSite(checked.given);
  const resolved = await bounded(contexts, concurrency, async (site) => ({ name: site.name, ...(await resolveCall({ tool: base, params: own }, site.context)) }));
  const ready = resolved.filter((s): s is { name: string; ok: true; call: ResolvedCall } => s.ok);
  const unnamed = resolved.filter((s) => !s.ok).map((s) => siteResult(s.name, s as ToolOutcome));
  let answer: FleetAnswer;
  // A door (a site's ability) is a write or a read on each site as that site says (call/resolve.ts).
  if (write && ready.filter((s) => !s.call.tool.annotations.readOnly).length > 1) {
    // The question shows the call as given (its names); each site's line what its ids will do.
    const asked = checked.named ? (normalizeParams(base.schema, own) as Record<string, unknown>) : params;
    const done = await fleetWrite(ready, asked, approver, concurrency, signal);
    if ('error' in done) return { ok: false, error: done.error };
    answer = { ...done, sites: inOrder(contexts, [...unnamed, ...done.sites]) };
  } else {
    // One site of several: its question names it (#48); a one-site session asks as before.
    const ask = (name: string) => (fleet.sites.length > 1 ? namingSite(approver, name) : approver);
    const sites = await fanOutSites(ready, (site) => decideThenRun(site.call, ask(site.name)), concurrency, signal);
    answer = { sites: inOrder(contexts, [...unnamed, ...sites]) };
  }
  if (runId) answer = { ...answer, run: runId };
  return redactSecrets({ ok: true, result: enforceBudget(withCounts(answer), budget) }, secrets);
}

function withoutSite(raw: Record<string, unknown>): Record<string, unknown> {
  const { [SITE]: _site, ...own } = raw;
  return own;
}

/** The answers in the session's order of sites. */
function inOrder(sites: ReadonlyArray<{ name: string }>, results: SiteResult[]): SiteResult[] {
  const byName = new Map(results.map((r) => [r.site, r]));
  return sites.map((s) => byName.get(s.name)).filter((r): r is SiteResult => r !== undefined);
}

/** list-sites runs once for the session, logging in to no site unless asked (`check`, per site). */
const localClient = (site: FleetSite) => ({ connect: async () => ({ username: site.username }) }) as never;

async function decideThenRun(call: ResolvedCall, approver: Approver): Promise<ToolOutcome> {
  const decision = await decideCall(call, approver);
  return decision.ok ? runTool(decision.call) : decision;
}

/** Every item's work, at most `limit` at once (each item's work returns data: a site's failure is its own). */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const done = await fanOut(items, work, { concurrency: limit });
  return done.map((r) => (r as { value: R }).value);
}

function withCounts(answer: FleetAnswer): FleetAnswer & { summary: string } {
  const ok = answer.sites.filter((s) => s.ok).length;
  const failed = answer.sites.length - ok;
  return { summary: `${ok} ok${failed ? `, ${failed} failed` : ''}`, ...answer };
}

/** `one`, `a,b`, `@group`, `all`, or a mix: the sites, in the session's order, each once. */
export function pickSites(fleet: Fleet, spec: string): FleetSite[] | { error: ToolErrorPayload } {
  const names = fleet.sites.map((s) => s.name);
  const chosen = new Set<string>();
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const members =
      part === 'all'
        ? names
        : part.startsWith('@')
          ? fleet.sites.filter((s) => s.groups.includes(part.slice(1))).map((s) => s.name)
          : names.filter((n) => n === part);
    if (!members.length) {
      const groups = [...new Set(fleet.sites.flatMap((s) => s.groups))].map((g) => `@${g}`);
      return {
        error: {
          code: 'invalid_params',
          message: `No site or group "${part.slice(0, 80)}" in this session.`,
          hint: `site takes: ${[...names, ...groups, 'all'].slice(0, 30).join(', ')} (or several, comma-separated); list-sites shows them.`,
        },
      };
    }
    for (const name of members) chosen.add(name);
  }
  if (!chosen.size) return { error: { code: 'invalid_params', message: 'site names no site.', hint: 'Give a name, "a,b", "@group" or "all".' } };
  return fleet.sites.filter((s) => chosen.has(s.name));
}

/** Like `invoke --sites`' run id (sites/run.ts): journal entries record it, `undo --run` finds them. */
function newRunId(): string {
  // The global Web Crypto: node:crypto is not loaded at start (#35, the start-up of `invoke`).
  return `r${Date.now().toString(36)}${Buffer.from(crypto.getRandomValues(new Uint8Array(3))).toString('hex')}`;
}
