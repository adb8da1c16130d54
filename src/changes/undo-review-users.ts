import type { ToolContext } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import { deleteUser } from '../tools/users/delete-user.js';
import { disableUser } from '../tools/users/disable-user.js';
import { enableUser } from '../tools/users/enable-user.js';
import { setUserRole } from '../tools/users/set-user-role.js';
import { updateUser } from '../tools/users/update-user.js';
import { addUserToSite } from '../tools/users/add-user-to-site.js';
import { removeUserFromSite } from '../tools/users/remove-user-from-site.js';
import { grantSuperAdmin } from '../tools/users/grant-super-admin.js';
import { revokeSuperAdmin } from '../tools/users/revoke-super-admin.js';
import { refuseStrongerAccount, refuseStrongerRole } from '../tools/users/guards.js';
import { rolePowers, withPowers } from '../tools/users/risk.js';
import type { UndoState, UserState } from '../undo/types.js';
import { type AccountChange, bulkDeletion, bulkFields, bulkRoles } from './undo-review-accounts.js';
import { BULK, changed, forward, type Line } from './undo-lines.js';

const FIELDS = ['email', 'name', 'bio', 'first_name', 'last_name', 'url'] as const;
const UPDATE_USER: ReadonlySet<string> = new Set(['email', 'name', 'bio']);
const fieldsOf = ({ is, want }: AccountChange) => FIELDS.filter((f) => want && want[f] !== undefined && is[f] !== undefined && want[f] !== is[f]);
const rolesChange = ({ is, want }: AccountChange) => Boolean(want) && changed([...is.roles].sort(), [...(want?.roles ?? [])].sort());

/**
 * Accounts, in the user tools' words: one account as its forward call asks (delete-user,
 * set-user-role, update-user, disable-user / enable-user: their refusals propagate, the undo
 * fails before anyone is asked); more than BULK of a kind (an import's, a bulk role change's)
 * in one line each kind, logins in alphabetical order (undo-review-accounts.ts).
 */
export async function userLines(context: ToolContext, now: UndoState, after: UndoState): Promise<Line[]> {
  const changes: AccountChange[] = Object.entries(after.users ?? {})
    .map(([key, want]) => ({ id: Number(key), is: now.users?.[key] as UserState, want }))
    .filter((c) => c.is && changed(c.is, c.want))
    .sort((a, b) => a.id - b.id);
  const deletions = changes.filter((c) => !c.want);
  const roles = changes.filter(rolesChange);
  const fields = changes.filter((c) => fieldsOf(c).length);
  const lines: Line[] = [];
  if (deletions.length > BULK) lines.push(await bulkDeletion(context, deletions));
  else {
    const me = deletions.length ? await context.client.connect() : undefined;
    for (const { id } of deletions) lines.push(await forward(context, deleteUser, { id, reassign_to: me?.id }));
  }
  const bulkRolesToo = roles.length > BULK;
  if (bulkRolesToo) lines.push(...(await bulkRoles(context, roles, (r) => rolesWords(context, r, after))));
  if (fields.length > BULK) lines.push(await bulkFields(context, fields, fieldsOf));
  for (const c of changes) {
    const { id, is, want } = c;
    if (!want) continue;
    if (want.disabled === true && is.disabled !== true) lines.push(await forward(context, disableUser, { id }));
    if (!bulkRolesToo && rolesChange(c)) lines.push(await recreatedRoleLine(context, id, is, want, after));
    const back = fields.length > BULK ? [] : fieldsOf(c);
    const asked = back.filter((f) => UPDATE_USER.has(f));
    if (asked.length) lines.push(await forward(context, updateUser, { id, ...Object.fromEntries(asked.map((f) => [f, want[f]])) }));
    // Fields update-user does not take (an import's first and last name, url): said plainly, checked as it checks.
    const plain = back.filter((f) => !UPDATE_USER.has(f));
    if (plain.length) {
      await refuseStrongerAccount(context.client, id, 'edit');
      lines.push(`change back ${is.username}'s ${plain.join(', ')}`);
    }
    if (want.disabled === false && is.disabled === true) lines.push(await forward(context, enableUser, { id }));
  }
  return lines;
}

/** "author", "administrator (manage_options, …)", checked as set-user-role checks a role given; one this undo recreates says "again". */
async function rolesWords(context: ToolContext, roles: readonly string[], after: UndoState): Promise<string> {
  const powersOf = await rolePowers(context.client);
  const words: string[] = [];
  for (const role of roles) {
    if (after.roles?.[role]) {
      words.push(`${role} (recreated first)`);
      continue;
    }
    await refuseStrongerRole(context.client, role);
    words.push(withPowers(role, powersOf(role)));
  }
  return words.join(', ');
}

/**
 * A network account's super admin state and sites (restore-network.ts), in the network tools'
 * own words: "make ghopper a super admin: every capability on every site …", "add bob to site 3
 * as editor (manage_categories, …)". Their refusals propagate, as the forward call's would; a
 * site the account must leave while it has posts there gets the engine's answer (a conflict).
 */
export async function networkLines(context: ToolContext, now: UndoState, after: UndoState): Promise<string[]> {
  const lines: string[] = [];
  for (const [key, want] of Object.entries(after.network_users ?? {})) {
    const is = now.network_users?.[key];
    if (!want || !is) continue;
    const user_id = Number(key);
    if (want.super_admin !== is.super_admin)
      lines.push(await forward(context, want.super_admin ? grantSuperAdmin : revokeSuperAdmin, { user_id }));
    for (const [site, roles] of Object.entries(want.sites)) {
      if (!is.sites[site]) lines.push(await forward(context, addUserToSite, { user_id, site, role: roles[0] ?? '' }));
    }
    for (const site of Object.keys(is.sites)) {
      if (want.sites[site]) continue;
      try {
        lines.push(await forward(context, removeUserFromSite, { user_id, site }));
      } catch (err) {
        if (!(err instanceof ToolError && err.code === 'content_needs_heir')) throw err;
        // The plugin refuses it too; an undo does not choose who gets the posts (the engine: a conflict).
        lines.push(`${is.username} stays on site ${site}: ${err.message.replace(/ Nothing was changed\.$/, '')}, and an undo does not choose who gets them`);
      }
    }
  }
  return lines;
}

/**
 * What the user's roles become, in set-user-role's own words (#36, #48): "give alice the role
 * administrator (manage_options, promote_users, …) (was: subscriber)" — the power it gives back
 * named as the forward call names it, its refusals (a stronger account, a role above the
 * caller's, the last administrator) checked by its review. Several roles or none: the same
 * words and checks for each role.
 */
async function rolesLine(context: ToolContext, id: number, is: UserState, want: UserState): Promise<string> {
  const [only] = want.roles;
  if (want.roles.length === 1 && only) return forward(context, setUserRole, { id, role: only });
  const { client } = context;
  await refuseStrongerAccount(client, id, 'change the roles of');
  for (const role of want.roles) await refuseStrongerRole(client, role);
  const was = is.roles.join(', ') || 'no role';
  if (!want.roles.length) return `take every role from ${is.username} (was: ${was})`;
  const powersOf = await rolePowers(client);
  return `give ${is.username} the roles ${want.roles.map((role) => withPowers(role, powersOf(role))).join(', ')} (was: ${was})`;
}

/**
 * Accounts given back a role this same undo recreates first (an undo of delete-role): the role
 * is not on the site yet, so set-user-role's question cannot be asked; the role's own line (its
 * power named) comes first, and this says who gets it.
 */
async function recreatedRoleLine(context: ToolContext, id: number, is: UserState, want: UserState, after: UndoState): Promise<string> {
  const back = want.roles.filter((role) => after.roles?.[role] && !is.roles.includes(role));
  if (!back.length) return rolesLine(context, id, is, want);
  await refuseStrongerAccount(context.client, id, 'change the roles of');
  return `give ${is.username} the role${want.roles.length === 1 ? '' : 's'} ${want.roles.join(', ')} again (was: ${is.roles.join(', ') || 'no role'})`;
}
