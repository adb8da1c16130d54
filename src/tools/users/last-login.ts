import type { WordPressClient } from '../../client/index.js';
import { COMPANION_ROUTES, companionEntry, companionVersion, compareVersions, requireCompanion } from '../companion.js';
import { parseIsoDate } from './dates.js';

/**
 * Last logins (#60.9): WordPress keeps none, so the companion plugin (0.7.0,
 * includes/last-login.php) records each account's, from the day it came (`last_login_since` in
 * its REST index entry): wp-login.php logins, application-password requests, and WordPress's own
 * application-password `last_used`. An account with no record has not logged in since then: its
 * last login is "unknown" (never "never": WordPress kept none before). `inactive_since` is the
 * plugin's filter on the users collection, so "not logged in for a year" is one paged listing.
 */
export interface LastLogin {
  /** The users query's additions: the field, and the filter when asked. */
  query: Record<string, string>;
  /** When the plugin began recording (ISO 8601), when the site has it. */
  since?: string;
  /** The cutoff asked for, epoch ms. */
  cutoff?: number;
}

export const LAST_LOGIN_FIELD = 'cms_last_login';

/** What list-users asks for: the field where the plugin records logins, the filter (which needs it). */
export async function lastLoginQuery(client: WordPressClient, inactiveSince: string | undefined): Promise<LastLogin> {
  const cutoff = inactiveSince === undefined ? undefined : parseIsoDate(inactiveSince, 'inactive_since');
  if (cutoff !== undefined) await requireCompanion(client, 'Finding accounts by their last login (inactive_since)', 'users/last-login');
  else {
    // Quietly: a listing on a site whose plugin keeps no logins is no reason to warn.
    const version = await companionVersion(client);
    if (version === undefined || compareVersions(version, COMPANION_ROUTES['users/last-login']) < 0) return { query: {} };
  }
  const entry = await companionEntry(client);
  const since = typeof entry?.last_login_since === 'string' ? entry.last_login_since : undefined;
  return {
    query: cutoff === undefined ? {} : { cms_inactive_since: new Date(cutoff).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    ...(since ? { since } : {}),
    ...(cutoff !== undefined ? { cutoff } : {}),
  };
}

/** An account's last login as the answer says it: the time, or "unknown" (no record since recording began). */
export function lastLoginOf(raw: Record<string, unknown>): string | undefined {
  if (!(LAST_LOGIN_FIELD in raw)) return undefined;
  const at = raw[LAST_LOGIN_FIELD];
  return typeof at === 'string' && at ? at : 'unknown';
}

/**
 * The note for a page: what "unknown" means, and with inactive_since, how many accounts cannot be
 * judged (registered by the cutoff, no record, and recording began after it: one count request).
 */
export async function lastLoginNote(
  client: WordPressClient,
  login: LastLogin,
  query: Record<string, string | undefined>,
  anyUnknown: boolean,
): Promise<string | undefined> {
  const day = (iso: string) => iso.slice(0, 10);
  const notes: string[] = [];
  if (anyUnknown && login.since)
    notes.push(`last_login "unknown": no login recorded since the companion plugin began recording (${day(login.since)}); WordPress keeps none before.`);
  if (login.cutoff !== undefined && login.since && Date.parse(login.since) > login.cutoff) {
    const cutoff = new Date(login.cutoff).toISOString();
    const { cms_inactive_since: _, ...rest } = { ...query, ...login.query };
    const unjudged = await client.count('/wp/v2/users', { ...rest, context: 'edit', cms_login_unknown_before: cutoff.replace(/\.\d{3}Z$/, 'Z') });
    if (unjudged)
      notes.push(`${unjudged} more account(s) registered before ${day(cutoff)} have no login recorded: recording began ${day(login.since)}, after that date, so whether they logged in since is unknown; they are not listed.`);
  }
  return notes.length ? notes.join(' ') : undefined;
}
