import type { Fleet } from '../call/index.js';
import { type FleetOptions, siteContext } from './run.js';
import type { SiteProfile } from './store.js';

/**
 * The sites of an agent session (`chat --sites`, `mcp --sites`, the toolkits' `sites` option)
 * as the call pipeline takes them: each with its own context (run.ts: its own client, so its
 * password goes to its own origin only; its own journal; its own secrets).
 */
export function fleetOf(
  profiles: ReadonlyArray<Omit<SiteProfile, 'groups'> & { groups?: readonly string[] }>,
  opts: Pick<FleetOptions, 'journal' | 'context' | 'concurrency'> = {},
): Fleet {
  return {
    sites: profiles.map((p) => {
      const profile = { ...p, groups: [...(p.groups ?? [])] };
      return { name: p.name, url: p.url, groups: profile.groups, username: p.username, context: siteContext(profile, opts) };
    }),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  };
}
