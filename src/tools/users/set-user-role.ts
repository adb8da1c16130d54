import { z } from 'zod';
import { WordPressError } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { userUndo } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { forUser, getUser, type RawUser } from './records.js';
import { resolveRole, roleError } from './roles.js';
import { text, wpId } from '../schema.js';
import { none, required, rolePowers, withPowers } from './risk.js';
import { refuseStrongerAccount, refuseStrongerRole } from './guards.js';
import { explainGuardError } from './write-errors.js';

export const setUserRole = defineTool({
  name: 'set-user-role',
  toolkit: 'users',
  description: 'Set a user’s role.',
  schema: () => z.strictObject({
    id: wpId(),
    role: text(),
    keep_other_roles: z.boolean().optional().describe('Add it, keep the others'),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: userUndo((params, name, before) => {
    const was = before.users?.[params.id]?.roles.join(', ') || 'no role';
    return `${params.keep_other_roles ? 'added' : 'set'} ${name}'s role ${params.role} (was: ${was})`;
  }),
  async review({ client }, params) {
    const [role, user, powersOf] = await Promise.all([
      resolveRole(client, params.role),
      getUser(client, params.id),
      rolePowers(client),
    ]);
    // Refused when the call runs (a stronger account, a role above the caller's): say so now, and ask no one.
    await refuseStrongerAccount(client, user.id, 'change the roles of');
    await refuseStrongerRole(client, role);
    const roles = params.keep_other_roles ? [...new Set([...user.roles, role])] : [role];
    const union = (list: string[]) => new Set(list.flatMap(powersOf));
    const [before, after] = [union(user.roles), union(roles)];
    const gained = [...after].filter((cap) => !before.has(cap));
    const lost = [...before].filter((cap) => !after.has(cap));
    const was = user.roles.length ? user.roles.join(', ') : 'no role';
    const summary = params.keep_other_roles
      ? `add the role ${withPowers(role, powersOf(role))} to ${user.username} (has: ${was})`
      : `give ${user.username} the role ${withPowers(role, powersOf(role))} (was: ${was})`;
    // Granting power hands over accounts; taking it away can lock the site's owners out.
    return gained.length || lost.length ? required(summary) : none(summary);
  },
  async execute({ client }, params) {
    // Independent reads, in parallel.
    const [role, me, user] = await Promise.all([
      resolveRole(client, params.role),
      client.connect(),
      getUser(client, params.id),
    ]);
    const roles = params.keep_other_roles ? [...new Set([...user.roles, role])] : [role];
    if (user.id === me.id && user.roles.includes('administrator') && !roles.includes('administrator')) {
      throw new ToolError(
        'cannot_demote_self',
        `User ${me.id} (${me.username}) is the administrator this toolkit is signed in as; taking administrator away would lock the toolkit out of user management.`,
        {
          hint: 'Change this account’s roles from another administrator account.',
        },
      );
    }
    // No one changes the roles of a stronger account, or gives a role above their own (themselves included).
    await refuseStrongerAccount(client, user.id, 'change the roles of');
    await refuseStrongerRole(client, role);
    // WordPress's `roles` field replaces every role the user has, hence read, merge, write.
    let updated: RawUser;
    try {
      updated = await forUser(params.id, () =>
        client.post<RawUser>(`/wp/v2/users/${params.id}`, { roles }, { context: 'edit', _fields: 'id,username,roles' }),
      );
    } catch (err) {
      throw refusedRole(err, user.id === me.id) ?? explainGuardError(roleError(err, params.role));
    }
    return { id: user.id, username: user.username, roles: updated.roles ?? [], previous_roles: user.roles };
  },
});

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
