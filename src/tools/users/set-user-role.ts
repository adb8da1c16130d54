import { z } from 'zod';
import { type WordPressClient, WordPressError } from '../../client/index.js';
import { powerWords } from './capability-words.js';
import { defineTool } from '../define-tool.js';
import { userUndo } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { forUser, getUser, type RawUser } from './records.js';
import { resolveRole, roleError } from './roles.js';
import { text, wpId } from '../schema.js';
import { none, required, roleDenials, rolePowers, withPowers } from './risk.js';
import { refuseStrongerAccount, refuseStrongerRole } from './guards.js';
import { explainGuardError } from './write-errors.js';

export const setUserRole = defineTool({
  name: 'set-user-role',
  toolkit: 'users',
  description: 'Set a user’s role, or add_roles / remove_roles.',
  schema: () => z.strictObject({
    id: wpId(),
    role: text().optional(),
    keep_other_roles: z.boolean().optional().describe('Add it, keep the others'),
    add_roles: z.array(text()).optional(),
    remove_roles: z.array(text()).optional(),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: userUndo((params, name, before) => {
    const was = before.users?.[params.id]?.roles.join(', ') || 'no role';
    if (!params.role) return `changed ${name}'s roles${(params.add_roles ?? []).map((r: string) => ` +${r}`).join('')}${(params.remove_roles ?? []).map((r: string) => ` -${r}`).join('')} (was: ${was})`;
    return `${params.keep_other_roles ? 'added' : 'set'} ${name}'s role ${params.role} (was: ${was})`;
  }),
  async review({ client }, params) {
    const [{ roles, given }, user, powersOf, me] = await Promise.all([
      wantedRoles(client, params),
      getUser(client, params.id),
      rolePowers(client),
      client.connect(),
    ]);
    refuseDemoteSelf(me, user, roles(user.roles));
    // Refused when the call runs (a stronger account, a role above the caller's): say so now, and ask no one.
    await refuseStrongerAccount(client, user.id, 'change the roles of');
    for (const role of given) await refuseStrongerRole(client, role);
    const after = roles(user.roles);
    const union = (list: string[]) => new Set(list.flatMap(powersOf));
    const [was_, is_] = [union(user.roles), union(after)];
    const gained = [...is_].filter((cap) => !was_.has(cap));
    // A role given that denies a capability takes it whatever the account's other roles grant (#58).
    const denies = (await roleDenials(client, given.filter((r) => !user.roles.includes(r)))).filter((cap) => was_.has(cap) && is_.has(cap));
    const lost = [...[...was_].filter((cap) => !is_.has(cap)), ...denies];
    const was = user.roles.length ? user.roles.join(', ') : 'no role';
    const [role = ''] = given;
    let summary = !params.role
      ? `change ${user.username}'s roles to ${after.map((r) => withPowers(r, powersOf(r))).join(', ') || 'no role'} (was: ${was})`
      : params.keep_other_roles
        ? `add the role ${withPowers(role, powersOf(role))} to ${user.username} (has: ${was})`
        : `give ${user.username} the role ${withPowers(role, powersOf(role))} (was: ${was})`;
    // Each powerful capability it grants, in plain words (#50).
    const power = powerWords(gained);
    if (power) summary += `; it grants power: ${power}`;
    if (powerWords(denies)) summary += `; its new role denies: ${powerWords(denies)}`;
    // Granting power hands over accounts; taking it away can lock the site's owners out.
    return gained.length || lost.length ? required(summary) : none(summary);
  },
  async execute({ client }, params) {
    // Independent reads, in parallel.
    const [{ roles: rolesOf, given }, me, user] = await Promise.all([
      wantedRoles(client, params),
      client.connect(),
      getUser(client, params.id),
    ]);
    const roles = rolesOf(user.roles);
    refuseDemoteSelf(me, user, roles);
    // No one changes the roles of a stronger account, or gives a role above their own (themselves included).
    await refuseStrongerAccount(client, user.id, 'change the roles of');
    for (const role of given) await refuseStrongerRole(client, role);
    // WordPress's `roles` field replaces every role the user has, hence read, merge, write.
    let updated: RawUser;
    try {
      updated = await forUser(params.id, () =>
        client.post<RawUser>(`/wp/v2/users/${params.id}`, { roles }, { context: 'edit', _fields: 'id,username,roles' }),
      );
    } catch (err) {
      throw refusedRole(err, user.id === me.id) ?? explainGuardError(roleError(err, given[0] ?? ''));
    }
    return { id: user.id, username: user.username, roles: updated.roles ?? [], previous_roles: user.roles };
  },
});

type RoleParams = { role?: string; keep_other_roles?: boolean; add_roles?: string[]; remove_roles?: string[] };

/**
 * The roles an account ends with, from what it has: `role` alone (or added, keep_other_roles),
 * then add_roles / remove_roles (as `wp user add-role` / `remove-role`); `given`, the roles it gains.
 */
async function wantedRoles(client: WordPressClient, params: RoleParams) {
  if (!params.role && !params.add_roles?.length && !params.remove_roles?.length)
    throw new ToolError('no_changes', 'Nothing to change: give role, add_roles or remove_roles.');
  const resolve = (list: string[] = []) => Promise.all(list.map((r) => resolveRole(client, r)));
  const [role, add, remove] = await Promise.all([params.role ? resolveRole(client, params.role) : undefined, resolve(params.add_roles), resolve(params.remove_roles)]);
  const given = [...new Set([...(role ? [role] : []), ...add])];
  const roles = (has: string[]) => {
    const base = role ? (params.keep_other_roles ? [...has, role] : [role]) : has;
    return [...new Set([...base, ...add])].filter((r) => !remove.includes(r));
  };
  return { roles, given };
}

/** The toolkit's own administrator keeps administrator: said by the review (a dry run) and the call alike. */
function refuseDemoteSelf(me: { id: number; username: string }, user: { id: number; roles: string[] }, roles: string[]): void {
  if (user.id === me.id && user.roles.includes('administrator') && !roles.includes('administrator')) {
    throw new ToolError(
      'cannot_demote_self',
      `User ${me.id} (${me.username}) is the administrator this toolkit is signed in as; taking administrator away would lock the toolkit out of user management.`,
      {
        hint: 'Change this account’s roles from another administrator account.',
      },
    );
  }
}

/**
 * WordPress refuses (403 `rest_user_invalid_role`) roles the signed-in account may not hand
 * out, and on its own account any role lacking `edit_users`, even next to administrator
 * (WP_REST_Users_Controller::check_role_update).
 */
function refusedRole(err: unknown, self: boolean): ToolError | undefined {
  if (!(err instanceof WordPressError) || err.code !== 'rest_user_invalid_role' || err.status !== 403) return undefined;
  return self
    ? new ToolError(
        'role_not_allowed',
        'WordPress does not let an account give itself a role without the edit_users capability, even alongside administrator. Nothing was changed.',
        {
          hint: 'Change this account’s roles from another administrator account.',
        },
      )
    : new ToolError(
        'role_not_allowed',
        `WordPress does not let the toolkit’s account give this role: ${err.message} Nothing was changed.`,
        {
          hint: 'Use an administrator’s application password, or a role listed by list-user-roles.',
        },
      );
}
