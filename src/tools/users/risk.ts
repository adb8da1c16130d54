import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../companion.js';
import type { CallReview } from '../define-tool.js';
import { byPower, capabilityNames, isHarmless, roleGrants } from './capability-maps.js';
import { CAPABILITY_TABLE } from './capability-table.js';
import { loadRoles } from './roles.js';
import { readRole } from './role-routes.js';

/**
 * What Author and the roles below it (Contributor, Subscriber) may do in a default WordPress:
 * write and publish their own posts, upload files, read, user levels 0–2 (the one table's
 * `harmless`, capabilities.json). Every other capability counts as powerful — a list of dangerous
 * ones would always miss one (edit_plugins, upload_plugins, edit_files, unfiltered_upload… run PHP
 * or take the site; a plugin's own capabilities are unknown here).
 * https://wordpress.org/documentation/article/roles-and-capabilities/
 */
export const SAFE_CAPABILITIES: ReadonlySet<string> = new Set<string>(CAPABILITY_TABLE.harmless);

/** The capabilities of `granted` outside the safe set, the most dangerous first (the table's order). */
export function powerfulOf(granted: readonly string[]): string[] {
  return [...new Set(granted)].filter((cap) => !isHarmless(cap)).sort(byPower);
}

export const required = (summary: string): CallReview => ({ approval: 'required', summary });
export const none = (summary: string): CallReview => ({ approval: 'none', summary });

/**
 * The powerful capabilities each role grants (everything outside SAFE_CAPABILITIES). A role the
 * site does not list counts as powerful: what it grants is unknown, so a person decides. Without
 * the companion plugin no role's capabilities are known (a site may have given its authors
 * promote_users), so every role counts as powerful, each in its own words (a change between two
 * roles is a change of power).
 */
export async function rolePowers(client: WordPressClient): Promise<(role: string) => string[]> {
  const { source, items } = await loadRoles(client);
  if (source !== 'site') return (role) => [`capabilities of ${role} on this site unknown without the companion plugin`];
  // Holding a role whose slug is a capability name (made before the slug rule) grants that capability too.
  const names = capabilityNames(items);
  const byRole = new Map(items.map((r) => [r.role, roleGrants(r.role, r.capabilities, names)]));
  return (role) => {
    const caps = byRole.get(role);
    if (!caps) return ['unknown capabilities'];
    return powerfulOf(caps);
  };
}

/**
 * The role a new user gets when none is given: the site's `default_role` option, which the
 * companion plugin reports (WordPress applies it in wp_insert_user). Without the plugin it is
 * unknown; WordPress's own default is subscriber.
 */
export async function defaultRole(client: WordPressClient): Promise<string | undefined> {
  if (!(await hasCompanion(client))) return undefined;
  const { default_role } = await client.get<{ default_role?: string }>(`/${COMPANION_NAMESPACE}/roles`);
  return default_role || undefined;
}

/** The capabilities `roles` deny (false in their maps), read with the plugin's role route (0.6.0); none known without it. */
export async function roleDenials(client: WordPressClient, roles: readonly string[]): Promise<string[]> {
  if (!roles.length || !(await hasCompanion(client, 'roles/edit'))) return [];
  const maps = await Promise.all(roles.map((role) => readRole(client, role)));
  return [...new Set(maps.flatMap((role) => Object.keys(role?.capabilities ?? {}).filter((cap) => role?.capabilities[cap] === false)))];
}

/** "administrator (manage_options, edit_users, …)" for a prompt. */
export function withPowers(role: string, powers: string[]): string {
  return powers.length ? `${role} (${powers.slice(0, 3).join(', ')}${powers.length > 3 ? ', …' : ''})` : role;
}
