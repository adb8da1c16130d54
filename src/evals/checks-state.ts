import type { CapturedMail } from '../sandbox/index.js';
import { STATE_KINDS, type StateCheck, type StateKind } from './case-schema.js';
import { arrayDifferences, describeValue, matchesSubset, subsetDifferences } from './match.js';
import type { SiteRecord, SiteSnapshot } from './site-state.js';

const NOUN: Record<StateKind, string> = {
  categories: 'category',
  tags: 'tag',
  users: 'user',
  posts: 'post',
  genres: 'genre',
  product_cats: 'product category',
  products: 'product',
  app_passwords: 'application password',
  sessions: 'login session',
  network_users: 'network account',
  network_posts: 'network post',
  roles: 'role',
};

/** Failures of the `state` checks against the site as it is now. Placeholders already resolved. */
export async function checkState(checks: readonly StateCheck[], site: SiteSnapshot): Promise<string[]> {
  const failures: string[] = [];
  for (const check of checks) {
    const kind = STATE_KINDS.find((k) => check[k] !== undefined) as StateKind;
    const selector = check[kind] as Record<string, unknown>;
    const matches = (await site.read(kind)).filter((record) => matchesSubset(selector, record));
    failures.push(...checkOne(kind, selector, check, matches));
  }
  return failures.map((failure) => `end state: ${failure}`);
}

function checkOne(
  kind: StateKind,
  selector: Record<string, unknown>,
  check: StateCheck,
  matches: SiteRecord[],
): string[] {
  const what = `${NOUN[kind]} ${describeValue(selector)}`;
  const ids = matches.map(label).join(', ');
  if (check.count !== undefined) {
    return matches.length === check.count
      ? []
      : [`expected ${check.count} × ${what}, found ${matches.length}${ids ? ` (${ids})` : ''}`];
  }
  if (check.exists === false) return matches.length ? [`${what} should not exist, found ${ids}`] : [];
  if (matches.length === 0) return [`no ${what} on the site`];
  if (matches.length > 1) return [`${matches.length} records match ${what} (${ids}), expected one`];
  const record = matches[0] as SiteRecord;
  const differences = [
    ...subsetDifferences(check.fields ?? {}, record),
    ...Object.entries(check.includes ?? {}).flatMap(([field, values]) =>
      arrayDifferences(field, record[field], values, true),
    ),
    ...Object.entries(check.excludes ?? {}).flatMap(([field, values]) =>
      arrayDifferences(field, record[field], values, false),
    ),
  ];
  return differences.map((difference) => `${NOUN[kind]} ${label(record)}: ${difference}`);
}

function label(record: SiteRecord): string {
  const name = record.name ?? record.username ?? record.title;
  return name === undefined ? `id ${record.id}` : `id ${record.id} ${describeValue(name, 60)}`;
}

/** What changed in `kind` between two reads: deleted, created and changed records (first few). */
export async function diffKind(
  kind: StateKind,
  before: SiteSnapshot,
  after: SiteSnapshot,
  limit = 5,
): Promise<string[]> {
  const old = new Map((await before.read(kind)).map((r) => [r.id, r]));
  const now = new Map((await after.read(kind)).map((r) => [r.id, r]));
  const changes: string[] = [];
  for (const [id, record] of old) {
    const current = now.get(id);
    if (!current) changes.push(`${label(record)} was deleted`);
    else {
      const fields = Object.keys(record).filter((field) => !matchesSubset(record[field], current[field]));
      for (const field of fields) {
        changes.push(
          `${label(record)} ${field} ${describeValue(record[field], 80)} → ${describeValue(current[field], 80)}`,
        );
      }
    }
  }
  for (const [id, record] of now) if (!old.has(id)) changes.push(`${label(record)} was created`);
  if (!changes.length) return [];
  const more = changes.length > limit ? ` and ${changes.length - limit} more` : '';
  return [`end state: ${kind} changed, expected unchanged: ${changes.slice(0, limit).join('; ')}${more}`];
}

/** Mail the site sent: at least one message to `to`, or exactly `count`. */
export function checkMail(
  expected: ReadonlyArray<{ to: string; count?: number }>,
  mail: readonly CapturedMail[],
): string[] {
  return expected.flatMap(({ to, count }) => {
    const sent = mail.filter((m) => m.to.some((address) => address.toLowerCase() === to.toLowerCase())).length;
    const ok = count === undefined ? sent > 0 : sent === count;
    const wanted = count === undefined ? 'at least 1' : String(count);
    return ok ? [] : [`end state: ${sent} mail(s) sent to ${to}, expected ${wanted}`];
  });
}
