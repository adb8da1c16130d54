import { ToolError } from '../tool-error.js';

/** Failed posts listed one by one in an answer; the rest are counted (the audit log has all). */
export const FAILURE_CAP = 50;
/** Id ranges written out in an answer before the rest are counted. */
export const RANGE_CAP = 100;

/** `[1,2,3,7,9,10]` → `"1-3, 7, 9-10"`, at most RANGE_CAP ranges, then how many ids are left. */
export function idRanges(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const ranges: string[] = [];
  let left = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    if (ranges.length < RANGE_CAP) ranges.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    else left += j - i + 1;
    i = j + 1;
  }
  return left ? `${ranges.join(', ')} and ${left} more (see the audit log)` : ranges.join(', ');
}

/** The first FAILURE_CAP failures, and how many more there were. */
export function cappedFailures<F>(failures: readonly F[]): { failures: F[]; more?: number } {
  if (failures.length <= FAILURE_CAP) return { failures: [...failures] };
  return { failures: failures.slice(0, FAILURE_CAP), more: failures.length - FAILURE_CAP };
}

interface PostFailure {
  post_id: number;
  /** `changed`: this post was left changed although it failed (terms removed, not given back). */
  error: { code: string; message: string; changed?: true };
}

interface PostReport {
  updated: readonly number[];
  unchanged: readonly number[];
  failed: readonly PostFailure[];
}

/** Failures with the same reason (a whole request that timed out) as one line with id ranges. */
function byReason(failed: readonly PostFailure[]) {
  const groups = new Map<string, { code: string; message: string; ids: number[] }>();
  for (const f of failed) {
    const key = `${f.error.code}\u0000${f.error.message}`;
    const group = groups.get(key) ?? { code: f.error.code, message: f.error.message, ids: [] };
    group.ids.push(f.post_id);
    groups.set(key, group);
  }
  return [...groups.values()].map((g) => ({ post_ids: idRanges(g.ids), code: g.code, message: g.message }));
}

/** Failed posts by reason (ids as ranges), FAILURE_CAP reasons, and how many more reasons. */
export function failuresByReason(failed: readonly PostFailure[]) {
  return cappedFailures(byReason(failed));
}

/**
 * A bulk post-term report sized for a model, whatever the number of posts: counts, the id
 * ranges done, every failed post with its reason (posts failing for the same reason share a
 * line; up to FAILURE_CAP lines, then a count). Not one line per successful post; the audit log
 * keeps the full per-post record.
 */
export function bulkAnswer(report: PostReport) {
  const { failures, more } = failuresByReason(report.failed);
  return {
    updated: report.updated.length,
    unchanged: report.unchanged.length,
    failed: report.failed.length,
    updated_ids: idRanges(report.updated),
    unchanged_ids: idRanges(report.unchanged),
    failures,
    ...(more ? { failure_reasons_not_listed: more } : {}),
  };
}

/**
 * A bulk call in which every post failed is an error on every surface (ok:false, CLI exit 1,
 * MCP isError), with the failures by reason; partial success stays a result listing them.
 */
export function noneDone(
  failed: readonly PostFailure[],
  /** What the call changed besides posts (a merge's children), said instead of "nothing was changed". */
  besides?: { said: string; details: Record<string, unknown> },
): ToolError {
  const { failures, more } = failuresByReason(failed);
  const unknown = failed.some((f) => f.error.code === 'outcome_unknown');
  const reasons = failures.slice(0, 3).map((f) => `${f.code}: ${f.message}`);
  const allUnknown = failed.every((f) => f.error.code === 'outcome_unknown');
  const leftChanged = failed.filter((f) => f.error.changed).map((f) => f.post_id);
  const changed = [
    besides?.said,
    leftChanged.length && `post(s) ${idRanges(leftChanged)} may have lost terms that could not be given back (see their reasons)`,
  ].filter(Boolean);
  const said = changed.length ? `; ${changed.join('; ')}` : '; nothing was changed';
  return new ToolError(
    allUnknown ? 'outcome_unknown' : 'all_posts_failed',
    `All ${failed.length} post(s) failed${unknown ? ' (for some the outcome is unknown: see their reasons)' : said}. ${reasons.join(' ')}`,
    {
      hint: 'Fix the reasons given, then run the call again: it only changes what is not done yet.',
      details: { failures, ...(more ? { failure_reasons_not_listed: more } : {}), ...besides?.details },
    },
  );
}
