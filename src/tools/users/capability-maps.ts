import { CAPABILITY_TABLE } from './capability-table.js';

/**
 * Power judged from capability maps, one way for every tool (issue #58), as the companion plugin
 * judges it (capability-maps.php, the same table). A string is a capability by what it is, never
 * by whether a role of that name exists: WordPress merges an account's own `caps` entries (its
 * role slugs as keys => true) into `allcaps` (WP_User::get_role_caps()), so holding a role whose
 * slug is `manage_options` really grants manage_options.
 * https://developer.wordpress.org/reference/classes/wp_user/get_role_caps/
 */
export type Caps = Record<string, boolean>;

const LEVEL = /^level_(\d+)$/;

/** WordPress's own capabilities, its meta and network ones, the table's, and level_0 … level_10. */
const KNOWN: ReadonlySet<string> = new Set<string>([
  ...CAPABILITY_TABLE.wordpress,
  ...CAPABILITY_TABLE.meta,
  ...CAPABILITY_TABLE.network,
  ...CAPABILITY_TABLE.harmless,
  ...Object.keys(CAPABILITY_TABLE.powerful),
]);
const HARMLESS: ReadonlySet<string> = new Set<string>(CAPABILITY_TABLE.harmless);
const NEVER_BEYOND: ReadonlySet<string> = new Set<string>(CAPABILITY_TABLE.never_beyond);

/** A name that is a capability whatever the site holds (the slug rule's static part). */
export const isKnownCapability = (cap: string): boolean => KNOWN.has(cap) || LEVEL.test(cap);

/** Author's capabilities and below, level_0 … level_2: never asked about. */
export const isHarmless = (cap: string): boolean => HARMLESS.has(cap);

/** level_0 … level_2 (Author's and below; custom roles rarely carry them): never "beyond" anyone. */
export const neverBeyond = (cap: string): boolean => NEVER_BEYOND.has(cap);

export interface CapabilityNames {
  has(cap: string): boolean;
}

/** What the site's roles listing gives (companion plugin; `slug_is_capability` from 0.7.0). */
export interface RoleMap {
  role: string;
  capabilities: readonly string[];
  slug_is_capability?: boolean;
}

/**
 * Every name that is a capability on this site: the known ones, every capability a role grants,
 * and the slugs of roles the plugin (0.7.0) says are capability names (roles made before the
 * slug rule, whose holders hold that capability).
 */
export function capabilityNames(roles: readonly RoleMap[]): CapabilityNames {
  const names = new Set(KNOWN);
  for (const role of roles) {
    for (const cap of role.capabilities) names.add(cap);
    if (role.slug_is_capability) names.add(role.role);
  }
  return { has: (cap: string) => names.has(cap) || LEVEL.test(cap) };
}

/**
 * An account's capability map from WordPress's `allcaps` (the REST `capabilities` field): the keys
 * that are only its role slugs are left out, unless the slug is a capability name (`names`).
 */
export function capabilityMap(allcaps: Caps, roles: readonly string[], names: CapabilityNames): Caps {
  const out: Caps = {};
  for (const [cap, granted] of Object.entries(allcaps)) if (!roles.includes(cap) || names.has(cap)) out[cap] = granted;
  return out;
}

/** What holding role `slug` grants: its granted capabilities, and its slug when that is a capability name. */
export function roleGrants(slug: string, granted: readonly string[], names: CapabilityNames): string[] {
  return names.has(slug) && !granted.includes(slug) ? [...granted, slug] : [...granted];
}

/** The table's order: most dangerous first, then the rest by name. */
const ORDER = Object.keys(CAPABILITY_TABLE.powerful);
export const powerRank = (cap: string): number => (ORDER.includes(cap) ? ORDER.indexOf(cap) : ORDER.length);
export const byPower = (a: string, b: string): number => powerRank(a) - powerRank(b) || a.localeCompare(b);

/**
 * Capabilities of `caps` (a map or granted names) that `mine` does not hold, most dangerous first;
 * level_0 … level_2 never count. Both maps hold capabilities only (capabilityMap).
 */
export function capabilitiesBeyond(caps: Caps | readonly string[], mine: Caps): string[] {
  const granted = Array.isArray(caps) ? caps : Object.keys(caps).filter((cap) => (caps as Caps)[cap]);
  return [...new Set(granted)].filter((cap) => !neverBeyond(cap) && !mine[cap]).sort(byPower);
}

/** Entries of a map that a change sets, flips or drops (a denial is an entry too). */
export function changedEntries(from: Caps | null, to: Caps | null): string[] {
  const keys = new Set([...Object.keys(from ?? {}), ...Object.keys(to ?? {})]);
  return [...keys].filter((cap) => from?.[cap] !== to?.[cap]).sort(byPower);
}
