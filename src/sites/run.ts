import { type ContextOptions, createContext } from '../config.js';
import { redactSecrets } from '../redact.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { ToolErrorPayload } from '../tools/tool-error.js';
import { siteJournal } from '../undo/journal-path.js';
import { secretsOf } from './check.js';
import { fanOut } from '../call/index.js';
import { profileCredentialsFrom, type SiteProfile } from './store.js';

/** One site's line of a fleet run: `{site, ok, result|error}` (what `invoke --sites --json` prints). */
export type SiteOutcome =
  | { site: string; ok: true; result: unknown }
  | { site: string; ok: false; error: ToolErrorPayload & { not_started?: true } };

/** A fleet run's id: 'r' + base36 milliseconds + random, like a change id (sortable, short). */
export function newRunId(): string {
  return `r${Date.now().toString(36)}${Buffer.from(crypto.getRandomValues(new Uint8Array(3))).toString('hex')}`;
}

export interface FleetOptions {
  concurrency?: number;
  /** Aborted: no new site starts; those under way finish. */
  signal?: AbortSignal;
  runId?: string;
  /** --journal as given: a file or off applies to every site; unset, each site's own file. */
  journal?: string;
  context?: Omit<ContextOptions, 'journal' | 'runId'>;
  /** Each site's outcome as it finishes (for live output). */
  onDone?: (outcome: SiteOutcome) => void;
}

/**
 * A context per site: its own client (its password goes to its own origin only, #26), its own
 * journal (the per-site file, or --journal), its own secrets, and the run's id on each entry.
 */
export function siteContext(profile: SiteProfile, opts: FleetOptions = {}): ToolContext {
  const journal = siteJournal(profile.url, opts.journal || process.env.CMS_JOURNAL || undefined);
  return createContext({ ...profile, credentialsFrom: profileCredentialsFrom(profile.name, profile.network) }, { ...opts.context, journal, ...(opts.runId ? { runId: opts.runId } : {}) });
}

/**
 * Runs `work` on each site with bounded concurrency. A site's failure is its own outcome, by
 * name; a bug in one site's work (a throw) is that site's `internal_error`, not the run's end.
 * Every outcome is redacted with every site's secrets: none can carry another site's password.
 */
export async function runOnSites(
  profiles: readonly SiteProfile[],
  work: (context: ToolContext, profile: SiteProfile) => Promise<{ ok: true; result: unknown } | { ok: false; error: ToolErrorPayload }>,
  opts: FleetOptions = {},
): Promise<SiteOutcome[]> {
  const secrets = profiles.flatMap((p) => secretsOf(p));
  const one = async (profile: SiteProfile): Promise<SiteOutcome> => {
    let outcome: SiteOutcome;
    try {
      const done = await work(siteContext(profile, opts), profile);
      outcome = done.ok ? { site: profile.name, ok: true, result: done.result } : { site: profile.name, ok: false, error: done.error };
    } catch (err) {
      const message = err instanceof Error ? err.message.split('\n')[0] ?? '' : String(err);
      const code = (err as { code?: unknown }).code;
      outcome = { site: profile.name, ok: false, error: { code: typeof code === 'string' ? code : 'internal_error', message } };
    }
    const safe = redactSecrets(outcome, secrets);
    opts.onDone?.(safe);
    return safe;
  };
  const results = await fanOut(profiles, one, { concurrency: opts.concurrency, signal: opts.signal });
  return results.map((r) =>
    r.started
      ? r.value
      : {
          site: r.item.name,
          ok: false,
          error: { code: 'not_started', message: 'Not started: the run was interrupted before this site.', not_started: true },
        },
  );
}
