import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../companion.js';
import type { CallReview } from '../define-tool.js';
import { loadRoles } from './roles.js';

/**
 * Capabilities that let an account take over others or the site: manage settings, hand out
 * roles, edit/create/delete users, run plugin or theme code, post unfiltered HTML (stored XSS
 * against administrators). https://wordpress.org/documentation/article/roles-and-capabilities/
 */
export const POWER_CAPABILITIES = [
  'manage_options',
  'promote_users',
  'edit_users',
  'create_users',
  'delete_users',
  'activate_plugins',
  'edit_theme_options',
  'unfiltered_html',
] as const;

export const required = (summary: string): CallReview => ({ approval: 'required', summary });
export const none = (summary: string): CallReview => ({ approval: 'none', summary });

/**
 * The power capabilities each role grants. A role the site does not list counts as powerful:
 * what it grants is unknown, so a person decides.
 */
export async function rolePowers(client: WordPressClient): Promise<(role: string) => string[]> {
  const { items } = await loadRoles(client);
  const byRole = new Map(items.map((r) => [r.role, r.capabilities]));
  return (role) => {
    const caps = byRole.get(role);
    if (!caps) return ['unknown capabilities'];
    return POWER_CAPABILITIES.filter((cap) => caps.includes(cap));
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

/** "administrator (manage_options, edit_users, …)" for a prompt. */
export function withPowers(role: string, powers: string[]): string {
  return powers.length ? `${role} (${powers.slice(0, 3).join(', ')}${powers.length > 3 ? ', …' : ''})` : role;
}
