import type { Fleet } from '../../call/index.js';
import type { ContextOptions } from '../../config.js';
import { fleetOf } from '../../sites/fleet.js';
import { selectSites } from '../../sites/select.js';
import { readProfiles } from '../../sites/store.js';

/**
 * `chat --sites` / `mcp --sites` (issue #38): the profiles chosen (a,b | @group | all; an
 * unknown name is exit 2 before any site is reached). Several: a Fleet, every tool then takes
 * `site`. One: that profile as `--site` would choose it (the single-site session, unchanged).
 * Each site keeps its own journal unless --journal names one file (or off) for all.
 */
export function sessionSites(spec: string, opts: { journal?: string; context?: Omit<ContextOptions, 'journal' | 'runId'> }): Fleet | undefined {
  const profiles = selectSites(readProfiles(), spec);
  if (profiles.length === 1) {
    process.env.CMS_SITE = (profiles[0] as { name: string }).name;
    return undefined;
  }
  return fleetOf(profiles, { journal: opts.journal, context: opts.context });
}

/** What the chat prints for a fleet at start: the sites, no secret. */
export const fleetLabel = (fleet: Fleet) => `${fleet.sites.length} sites (${fleet.sites.map((s) => s.name).join(', ')})`;
