import { idRanges } from '../answers/bulk.js';
import type { AccountStep } from './role-plan.js';
import { powersInWords } from './capability-words.js';

/**
 * The answers of the bulk account tools (#50), bounded whatever the number of accounts: counts,
 * every account that gains power, every refusal and failure with its reason (up to LISTED), the
 * rest as id ranges. The audit log keeps the call's params.
 */
/** `skipped`: changed by someone else since it was read (#59.9), left as they made it. */
export type ReportStep = Omit<AccountStep, 'outcome'> & { outcome: AccountStep['outcome'] | 'skipped' | 'failed' };

export const LISTED = 100;

/** " — these gain power: alice (administrator): change every site setting (manage_options); …" */
export function gainersLine(steps: readonly Pick<AccountStep, 'username' | 'gains'>[], max = 20): string {
  const gainers = steps.filter((s) => s.gains.length);
  if (!gainers.length) return '';
  const lines = gainers.slice(0, max).map((s) => `${s.username}: ${powersInWords(s.gains)}`);
  const more = gainers.length > max ? `; and ${gainers.length - max} more account(s) gaining power` : '';
  return `. ${gainers.length} account(s) gain power — ${lines.join(' | ')}${more}`;
}

export function accountReport(role: string, steps: readonly ReportStep[], tense: 'would' | 'done') {
  const word = { change: tense === 'done' ? 'changed' : 'change', skip: 'unchanged', skipped: 'skipped', refused: 'refused', failed: 'failed' } as const;
  const counts: Record<string, number> = { [word.change]: 0, unchanged: 0, ...(tense === 'done' ? { skipped: 0 } : {}), refused: 0, failed: 0 };
  for (const s of steps) counts[word[s.outcome]] = (counts[word[s.outcome]] ?? 0) + 1;
  // Refusals, failures and power first: what a person must read.
  const rank = (s: ReportStep) => (s.outcome === 'failed' || s.outcome === 'refused' || s.outcome === 'skipped' ? 0 : s.gains.length ? 1 : 2);
  const ordered = [...steps].sort((a, b) => rank(a) - rank(b) || a.id - b.id);
  const accounts = ordered.slice(0, LISTED).map((s) => ({
    id: s.id,
    username: s.username,
    result: word[s.outcome],
    was: s.roles.join(', ') || 'no role',
    ...(s.reason ? { reason: s.reason } : {}),
    ...(s.gains.length ? { gains: powersInWords(s.gains) } : {}),
  }));
  const unlisted = ordered.slice(LISTED);
  return {
    role,
    counts,
    accounts,
    ...(unlisted.length ? { not_listed: { count: unlisted.length, ids: idRanges(unlisted.map((s) => s.id)) } } : {}),
  };
}
