import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../companion.js';
import type { CallReview } from '../define-tool.js';
import { loadRoles } from './roles.js';

/**
 * What Author and the roles below it (Contributor, Subscriber) may do in a default WordPress:
 * write and publish their own posts, upload files, read. Every other capability counts as
 * powerful — a list of dangerous ones would always miss one (edit_plugins, upload_plugins,
 * edit_files, unfiltered_upload… run PHP or take the site; a plugin's own capabilities are
 * unknown here). https://wordpress.org/documentation/article/roles-and-capabilities/
 */
export const SAFE_CAPABILITIES: ReadonlySet<string> = new Set([
  'read',
  'edit_posts',
  'delete_posts',
  'upload_files',
  'publish_posts',
  'edit_published_posts',
  'delete_published_posts',
  // The WordPress 2.0 user levels of those roles (level_3 and up are Editor's and Administrator's).
  'level_0',
  'level_1',
  'level_2',
]);

/**
 * The powerful capabilities a question names first: those that take over accounts or the site,
 * or run code (plugins, themes, files, unfiltered HTML or uploads).
 */
export const POWER_CAPABILITIES = [
  'manage_options',
  'promote_users',
  'edit_users',
  'create_users',
  'delete_users',
  'remove_users',
  'list_users',
  'install_plugins',
  'upload_plugins',
  'edit_plugins',
  'activate_plugins',
  'edit_themes',
  'install_themes',
  'upload_themes',
  'edit_files',
  'unfiltered_upload',
  'unfiltered_html',
  'edit_theme_options',
  'update_core',
  'update_plugins',
  'update_themes',
  'delete_plugins',
  'delete_themes',
  'switch_themes',
  'import',
  'export',
] as const;

/** The capabilities of `granted` outside the safe set, the most dangerous first. */
export function powerfulOf(granted: readonly string[]): string[] {
  const power = POWER_CAPABILITIES as readonly string[];
  const powerful = [...new Set(granted)].filter((cap) => !SAFE_CAPABILITIES.has(cap));
  const rank = (cap: string) => (power.includes(cap) ? power.indexOf(cap) : power.length);
  return powerful.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
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
  const byRole = new Map(items.map((r) => [r.role, r.capabilities]));
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

/** "administrator (manage_options, edit_users, …)" for a prompt. */
export function withPowers(role: string, powers: string[]): string {
  return powers.length ? `${role} (${powers.slice(0, 3).join(', ')}${powers.length > 3 ? ', …' : ''})` : role;
}
