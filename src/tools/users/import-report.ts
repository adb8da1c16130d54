import { idRanges } from '../answers/bulk.js';
import type { AccessGiven } from './account-access.js';
import type { RowStep } from './import-plan.js';
import { powersInWords } from './capability-words.js';

/**
 * import-users' answer, bounded whatever the number of rows (#50): counts by result, every
 * row's line number under its result (as ranges), and up to LISTED rows in full — errors and
 * failures first, then rows that grant power, then the rest. No password, ever; a link only
 * as where it went.
 */
/**
 * `finished`: an account an unfinished import made got its way in (#59.10); `unknown`: its
 * batch's answer was lost and it was not found when looked up — WordPress may still make it (#59.12);
 * `skipped`: its role was not changed, another writer changed it since it was read (#59).
 */
export type RowResult = RowStep & {
  result: RowStep['outcome'] | 'created' | 'updated' | 'failed' | 'not_run' | 'finished' | 'unknown' | 'skipped';
  access?: AccessGiven;
};

export const LISTED = 100;

const WORD: Record<RowResult['result'], string> = {
  create: 'create',
  update: 'update',
  skip: 'skip',
  error: 'error',
  created: 'created',
  updated: 'updated',
  failed: 'failed',
  not_run: 'not_run',
  finish: 'finish',
  finished: 'finished',
  unknown: 'unknown',
  skipped: 'skipped',
};

export function importReport(rows: readonly RowResult[], tense: 'would' | 'done') {
  const counts: Record<string, number> =
    tense === 'would' ? { create: 0, update: 0, skip: 0, error: 0 } : { created: 0, updated: 0, skip: 0, error: 0, failed: 0 };
  const lines = new Map<string, number[]>();
  for (const row of rows) {
    const word = WORD[row.result];
    counts[word] = (counts[word] ?? 0) + 1;
    const list = lines.get(word) ?? [];
    list.push(row.line);
    lines.set(word, list);
  }
  const accessFailed = rows.filter((r) => r.access?.error).length;
  const rank = (r: RowResult) =>
    r.result === 'error' || r.result === 'failed' || r.result === 'not_run' || r.result === 'unknown' || r.access?.error ? 0 : r.gains.length ? 1 : 2;
  const listed = [...rows].sort((a, b) => rank(a) - rank(b) || a.line - b.line).slice(0, LISTED);
  const delivered = rows.find((r) => r.access && !r.access.error)?.access;
  return {
    counts,
    ...(delivered ? { access: { delivery: delivered.delivery, given: rows.filter((r) => r.access && !r.access.error).length, failed: accessFailed, ...(delivered.link_given_to ? { links_given_to: delivered.link_given_to } : {}) } } : {}),
    lines_by_result: Object.fromEntries([...lines].map(([k, v]) => [k, idRanges(v)])),
    rows: listed.map((r) => ({
      line: r.line,
      user_login: r.login,
      result: WORD[r.result],
      ...(r.id ? { id: r.id } : {}),
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.role && (r.outcome === 'create' || r.gains.length) ? { role: r.role } : {}),
      ...(r.gains.length ? { gains: powersInWords(r.gains) } : {}),
      ...(r.access?.error ? { access_error: r.access.error } : r.access?.sent_to ? { sent_to: r.access.sent_to } : {}),
    })),
    ...(rows.length > LISTED ? { rows_not_listed: rows.length - LISTED } : {}),
  };
}
