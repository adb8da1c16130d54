import { type WordPressClient, WordPressError } from '../../client/index.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import { pluginRefusal } from '../refusals.js';
import type { RoleState } from '../undo-data.js';

/**
 * The companion plugin's role and capability routes (0.6.0, includes/roles-editor.php): WordPress's
 * REST API has none. Shared by the role tools and the undo engine.
 */
export interface RoleDetail extends RoleState {
  role: string;
  users: number[];
  users_count: number;
}

const ROLES = `/${COMPANION_NAMESPACE}/roles`;
const slugPath = (slug: string) => `${ROLES}/${encodeURIComponent(slug)}`;

export const needRoleRoutes = (client: WordPressClient, what: string) => requireCompanion(client, what, 'roles/edit');

/** The role, or null when the site has none by that slug. */
export async function readRole(client: WordPressClient, slug: string): Promise<RoleDetail | null> {
  try {
    const role = await client.get<RoleDetail>(slugPath(slug));
    return { ...role, capabilities: { ...role.capabilities } };
  } catch (err) {
    if (err instanceof WordPressError && err.status === 404 && err.code === 'cms_admin_unknown_role') return null;
    throw roleRouteError(err);
  }
}

/**
 * Creates the role or sets exactly these capabilities (and the name when given); with `check`
 * (plugin 0.7.0) the plugin judges the change and answers without writing.
 */
export async function putRole(client: WordPressClient, slug: string, state: { name?: string; capabilities: Record<string, boolean>; create?: boolean; check?: boolean }) {
  try {
    // An exact state: safe to send again after a lost answer.
    return (await client.request<RoleDetail & { created: boolean }>({ method: 'PUT', path: slugPath(slug), body: state, idempotent: true })).data;
  } catch (err) {
    throw roleRouteError(err);
  }
}

export async function removeRole(client: WordPressClient, slug: string, moveUsersTo?: string, force?: boolean, check?: boolean) {
  try {
    return await client.delete<RoleDetail & { moved_to: string }>(slugPath(slug), {
      ...(moveUsersTo ? { move_users_to: moveUsersTo } : {}),
      ...(force ? { force: true } : {}),
      ...(check ? { check: true } : {}),
    });
  } catch (err) {
    throw roleRouteError(err);
  }
}

export interface UserCaps {
  id: number;
  username: string;
  roles: string[];
  capabilities: Record<string, boolean>;
}

export async function readUserCaps(client: WordPressClient, id: number): Promise<UserCaps | null> {
  try {
    const user = await client.get<UserCaps>(`/${COMPANION_NAMESPACE}/users/${id}/capabilities`);
    return { ...user, capabilities: { ...user.capabilities } };
  } catch (err) {
    if (err instanceof WordPressError && err.status === 404) return null;
    throw roleRouteError(err);
  }
}

/** Sets exactly these own entries; with `check` (plugin 0.7.0) judged and not written. */
export async function putUserCaps(client: WordPressClient, id: number, capabilities: Record<string, boolean>, check?: boolean) {
  try {
    return (
      await client.request<UserCaps>({ method: 'PUT', path: `/${COMPANION_NAMESPACE}/users/${id}/capabilities`, body: { capabilities, ...(check ? { check: true } : {}) }, idempotent: true })
    ).data;
  } catch (err) {
    throw roleRouteError(err);
  }
}

/** The plugin's codes whose refusal is not refusals.ts's (a slug, a missing role, a lock). */
const CODES: Record<string, [string, string]> = {
  cms_admin_unknown_role: ['unknown_role', 'list-user-roles lists this site’s roles.'],
  cms_admin_invalid_role: ['invalid_role', 'A role slug is lower case letters, digits, _ and -.'],
  cms_admin_busy: ['site_busy', 'Run it again.'],
};

/** The plugin's refusals as the toolkit's errors (docs/error-handling.md), with the next step: refusals.ts's table first. */
export function roleRouteError(err: unknown): unknown {
  if (!(err instanceof WordPressError)) return err;
  const refused = pluginRefusal(err);
  if (refused) return refused;
  const known = CODES[err.code ?? ''];
  if (!known) return err;
  const [code, hint] = known;
  const data = (err.data ?? {}) as { capabilities?: string[]; users_count?: number };
  return new ToolError(code, `${err.message.replace(/\s*$/, '')}${/changed\.$/.test(err.message) ? '' : ' Nothing was changed.'}`, {
    hint,
    details: { ...(data.capabilities ? { capabilities: data.capabilities } : {}), ...(data.users_count ? { users_count: data.users_count } : {}) },
  });
}
