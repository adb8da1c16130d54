import { type WordPressClient, WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { COMPANION_NAMESPACE, hasCompanion, INSTALL_HINT } from '../companion.js';
import { type RoleRecord, WORDPRESS_DEFAULT_ROLES } from './default-roles.js';

export interface RoleList {
  /** `site`: the site's live roles; `wordpress-defaults`: WordPress's five, the site may differ. */
  source: 'site' | 'wordpress-defaults';
  items: RoleRecord[];
  note?: string;
}

export const DEFAULTS_NOTE = `The companion plugin is missing, so these are WordPress's five default roles, not necessarily this site's: custom roles and changed capabilities do not show. ${INSTALL_HINT}`;

/** The site's roles from the companion plugin, or WordPress's defaults, clearly labelled. */
export async function loadRoles(client: WordPressClient): Promise<RoleList> {
  if (!(await hasCompanion(client))) {
    return { source: 'wordpress-defaults', items: WORDPRESS_DEFAULT_ROLES.map((r) => ({ ...r })), note: DEFAULTS_NOTE };
  }
  const { roles } = await client.get<{ roles: RoleRecord[] }>(`/${COMPANION_NAMESPACE}/roles`);
  return { source: 'site', items: roles };
}

/**
 * The slug of `role` on this site: exact slug, else a case-insensitive slug or label match
 * ("Editor" → `editor`). Unknown → an error listing the valid slugs. Without the companion
 * plugin the site's roles are unknown; WordPress checks the role itself (see roleError).
 */
export async function resolveRole(client: WordPressClient, role: string): Promise<string> {
  if (!(await hasCompanion(client))) return role;
  const { items } = await loadRoles(client);
  if (items.some((r) => r.role === role)) return role;
  const wanted = role.trim().toLowerCase();
  const matches = items.filter((r) => r.role.toLowerCase() === wanted || r.name.toLowerCase() === wanted);
  if (matches.length === 1 && matches[0]) return matches[0].role;
  throw unknownRole(
    role,
    items.map((r) => r.role),
    'site',
  );
}

function unknownRole(role: string, valid: string[], source: RoleList['source']): ToolError {
  const which =
    source === 'site'
      ? 'this site’s roles'
      : 'WordPress’s default roles (the site may have others; list-user-roles needs the companion plugin to tell)';
  return new ToolError('unknown_role', `There is no role "${role}" on this site.`, {
    hint: `Use one of ${which}: ${valid.join(', ')}.`,
  });
}

/** WordPress's own answer to an unknown role (400 `rest_user_invalid_role`), as the same error. */
export function roleError(err: unknown, role: string): unknown {
  if (err instanceof WordPressError && err.code === 'rest_user_invalid_role' && err.status === 400) {
    return unknownRole(
      role,
      WORDPRESS_DEFAULT_ROLES.map((r) => r.role),
      'wordpress-defaults',
    );
  }
  return err;
}
