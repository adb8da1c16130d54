import type { AnyToolDefinition, CallReview } from '../tools/define-tool.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import { type Approver, approvalRequest, notApproved, reviewCall } from './approval.js';
import { decidedAs } from './decide.js';
import { fanOut } from './fan-out.js';
import type { ResolvedCall } from './resolve.js';
import { runTool, type ToolOutcome } from './run-tool.js';

/** One site's share of a several-site answer. */
export type SiteResult = { site: string; ok: true; result: unknown } | { site: string; ok: false; error: ToolErrorPayload };

export interface FleetAnswer {
  sites: SiteResult[];
  /** A write's run id: each site's journal entries record it (`cms-admin undo --run ID`). */
  run?: string;
}

export function siteResult(site: string, outcome: ToolOutcome): SiteResult {
  return outcome.ok ? { site, ok: true, result: outcome.result } : { site, ok: false, error: outcome.error };
}

/**
 * A write on several sites (issue #38): each site's review, read from that site, then ONE
 * question listing every site's effect — asked even where the same call on one site would not
 * be — then exactly the approved call (the same sites, each with the params its review named)
 * on each, journalled on that site's own journal. A site whose review finds the call would fail
 * there answers that error and is neither asked about nor written. Declined: nothing anywhere.
 */
export async function fleetWrite(
  sites: ReadonlyArray<{ name: string; call: ResolvedCall }>,
  params: Record<string, unknown>,
  approver: Approver,
  concurrency: number,
  signal?: AbortSignal,
): Promise<FleetAnswer | { error: ToolErrorPayload }> {
  const tool = (sites[0] as { call: ResolvedCall }).call.tool;
  const reviewed = await bounded(sites, concurrency, async (site) => ({
    ...site,
    // Each site's own tool: a door (a site's ability) resolves to what that site defines.
    review: await reviewCall(readingTool(site.call.tool), site.call.context, site.call.params),
  }));
  const go: Array<{ name: string; call: ResolvedCall; review: CallReview }> = [];
  const refused = new Map<string, SiteResult>();
  for (const site of reviewed) {
    if (site.review.approval === 'fails') refused.set(site.name, { site: site.name, ok: false, error: site.review.error });
    else go.push({ ...site, review: site.review });
  }
  if (!go.length) return { sites: [...refused.values()] };
  // Built by us from what will run, a line a site in the session's order; a site's own words
  // (names and roles read from it) stay on its line: they cannot add or reorder lines (#48).
  const lines = go.map((site) => ({ site: site.name, summary: siteLine(site.review.summary) }));
  const failing = refused.size ? `\n(not on ${[...refused.keys()].join(', ')}: the call would fail there)` : '';
  const summary = `on ${go.length} sites:\n${lines.map((l) => `- ${l.site}: ${l.summary}`).join('\n')}${failing}`;
  const args = { ...params, site: go.map((s) => s.name).join(',') };
  const decision = await approver({ ...approvalRequest(tool.name, args, summary), sites: lines });
  if (!decision.approved) {
    const error = notApproved(decision);
    return { error: { ...error, message: error.message.replace('Nothing was changed.', 'Nothing was changed on any site.') } };
  }
  // Stopped (Ctrl-C, the caller's signal) once approved: no new site starts; each one not
  // started is said by name, nothing written there. Each site is read again first: one that
  // changed while the person read the question is not written (asked about anew by a new call).
  const ran = await fanOutSites(go, (site) => runIfUnchanged(site), concurrency, signal);
  const byName = new Map([...refused, ...ran.map((r) => [r.site, r] as const)]);
  return { sites: sites.map((s) => byName.get(s.name)).filter((r): r is SiteResult => r !== undefined) };
}

/** The approved call on one site, if that site still reads as its line of the question said. */
async function runIfUnchanged(site: { name: string; call: ResolvedCall; review: CallReview }): Promise<ToolOutcome> {
  const { call } = site;
  const approved = site.review.params ?? call.params;
  const now = await reviewCall(readingTool(call.tool), call.context, approved);
  if (now.approval === 'fails') return { ok: false, error: now.error };
  // What the one question over every site approved, on this site: exactly these params.
  if (now.summary === site.review.summary) return runTool(decidedAs(call, approved));
  return {
    ok: false,
    error: {
      code: 'changed_since_question',
      message: `${site.name} changed while the question was open: the call would now ${siteLine(now.summary).slice(0, 300)}, not what was approved. Nothing was changed there.`,
      hint: `Make the call again for ${site.name}: it is asked anew.`,
    },
  };
}

/**
 * A site's words on one line of a question: line breaks, the characters that can pass for one,
 * controls and bidi overrides become spaces (a name read from a site cannot start a new line
 * that looks like another site's).
 */
export function siteLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ');
}

/**
 * In a session of several sites, a write on one site is asked about naming it (#48): the summary
 * starts `on NAME:`, `args` keep `site`, `sites` has its one line — so staging and production
 * clones never read the same.
 */
export function namingSite(approver: Approver, site: string): Approver {
  return (request) => {
    const line = siteLine(request.summary);
    return approver({ ...request, args: { ...request.args, site }, summary: `on ${site}: ${line}`, sites: [{ site, summary: line }] });
  };
}

/**
 * A tool without review() but with a preview (create-category: is the name free there, under
 * which parent) is described from its preview, read from each site; a preview that finds the
 * call would fail there is that site's error, as a failed review is.
 */
function readingTool(tool: AnyToolDefinition): AnyToolDefinition {
  const { preview } = tool;
  if (tool.review || !preview) return tool;
  return {
    ...tool,
    review: async (context, params) => {
      const seen = await preview(context, params);
      const summary = typeof seen.would === 'string' ? seen.would : JSON.stringify(seen).slice(0, 300);
      return { approval: 'required', summary };
    },
  };
}

/** Every item's work, at most `limit` at once (each item's work returns data: a site's failure is its own). */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const done = await fanOut(items, work, { concurrency: limit });
  return done.map((r) => (r as { value: R }).value);
}

/**
 * The call on each site, at most `concurrency` at once; once `signal` aborts no new site starts,
 * and each site not started answers `not_started` (nothing was changed there).
 */
export async function fanOutSites<S extends { name: string }>(
  sites: readonly S[],
  work: (site: S) => Promise<ToolOutcome>,
  concurrency: number,
  signal?: AbortSignal,
): Promise<SiteResult[]> {
  const done = await fanOut(sites, work, { concurrency, ...(signal && { signal }) });
  return done.map((r) =>
    r.started
      ? siteResult(r.item.name, r.value)
      : {
          site: r.item.name,
          ok: false,
          error: { code: 'not_started', message: `Stopped before ${r.item.name} was started: nothing was changed there.`, hint: 'Run the call again for the sites not started.' },
        },
  );
}
