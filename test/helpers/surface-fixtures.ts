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
  /** `php` runs PHP in the WordPress the call goes to (the suite's site, or the test network's main site). */
  make(php: (code: string) => Promise<string>): Promise<Made>;
  /** The tool runs only on a multisite network: the property runs it on the test network (test/helpers/network.ts). */
  network?: true;
  /** The call asks a person (its review says so for these fixtures): every surface but `invoke` must ask, so the property is never met by calls that all failed. */
  asks?: true;
}

export const SURFACE_FIXTURES: Readonly<Record<string, SurfaceFixture>> = { ...TERM_FIXTURES, ...USER_FIXTURES, ...ABILITY_FIXTURES };
