import type { Watched } from './surface-state.js';
import { USER_FIXTURES } from './surface-fixtures-users.js';
import { TERM_FIXTURES } from './surface-fixtures-terms.js';
import { ABILITY_FIXTURES } from './surface-fixtures-abilities.js';

/**
 * The surface property's calls (#58 "By construction"): for every write tool of the registry, one
 * call made on fresh fixtures, given with ids and, where the tool takes names (a login, an email, a
 * slug), with names. Each asks a person where the tool can (a role with manage_options, a delete,
 * a merge) so a declined question can be checked to write nothing. test/unit/surface-fixtures.test.ts
 * fails for a write tool without one, so a new tool gets one.
 */
export interface Made {
  ids: Record<string, unknown>;
  /** The same call with names where ids go; undefined when the tool takes none. */
  names?: Record<string, unknown>;
  /** What the call may change: read back before and after a declined question. */
  watch: Watched;
  /** Values that must never be shown (passwords). */
  secrets?: string[];
}

export interface SurfaceFixture {
  make(): Promise<Made>;
  /**
   * The tool runs only on a multisite network: on the suite's single site both forms are refused
   * before any question (the names among the network's accounts: test/wordpress/network/names-network.test.ts).
   */
  network?: true;
}

export const SURFACE_FIXTURES: Readonly<Record<string, SurfaceFixture>> = { ...TERM_FIXTURES, ...USER_FIXTURES, ...ABILITY_FIXTURES };
