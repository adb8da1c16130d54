import { z } from 'zod';
import { defineTool, type ToolContext } from '../define-tool.js';
import { userOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { refusal } from '../refusals.js';
import { wpId } from '../schema.js';
import { isPowerful, powerWords } from './capability-words.js';
import { refuseStrongerAccount } from './guards.js';
import { type Caps, capsDiff, capabilityHolders, guardRoleChange } from './role-change.js';
import { capList } from './role-params.js';
import { needRoleRoutes, putUserCaps, readUserCaps } from './role-routes.js';
import { userWithLogin } from './undo-users.js';
import { loadRoles } from './roles.js';
import { capabilityNames, roleGrants } from './capability-maps.js';
import { hasCompanion } from '../companion.js';

type Params = { user_id: number; add_capabilities?: string[]; remove_capabilities?: string[] };

/**
 * One account's own entries, as `wp user add-cap` / `remove-cap`: added ones granted; removed
 * ones dropped when the account's own grant, denied (false) when it holds them through a role.
 */
async function plan({ client }: ToolContext, params: Params) {
  await needRoleRoutes(client, 'Changing an account’s capabilities');
  if (!params.add_capabilities?.length && !params.remove_capabilities?.length)
    throw new ToolError('no_changes', 'Nothing to change: give add_capabilities or remove_capabilities.');
  const me = await client.connect();
  if (me.id === params.user_id)
    throw refusal('cannot_change_own_capabilities', `User ${me.id} (${me.username}) is the account the toolkit signs in as: an account cannot change its own capabilities. Nothing was changed.`);
  const user = await readUserCaps(client, params.user_id);
  if (!user) throw new ToolError('user_not_found', `There is no user ${params.user_id} on this site.`, { hint: 'list-users finds accounts.' });
  const roles = (await loadRoles(client)).items;
  const names = capabilityNames(roles);
  const fromRoles = new Set(roles.filter((r) => user.roles.includes(r.role)).flatMap((r) => roleGrants(r.role, r.capabilities, names)));
  const own: Caps = { ...user.capabilities };
  for (const cap of params.add_capabilities ?? []) own[cap] = true;
  for (const cap of params.remove_capabilities ?? []) {
    if (fromRoles.has(cap)) own[cap] = false;
    else delete own[cap];
  }
  // What the account holds in all, before and after: its roles' capabilities under its own entries.
  const all = (entries: Caps): Caps => ({ ...Object.fromEntries([...fromRoles].map((c) => [c, true])), ...entries });
  return { user, own, before: all(user.capabilities), after: all(own) };
}

export const updateUserCapabilities = defineTool({
  name: 'update-user-capabilities',
  toolkit: 'users',
  description: 'Grant or deny capabilities to one account, beyond its roles.',
  schema: () => z.strictObject({
    user_id: wpId(),
    add_capabilities: capList().optional(),
    remove_capabilities: capList().optional().describe('Dropped, or denied when a role grants it'),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: {
    scope: async (_context, params) => ({ userCaps: [params.user_id] }),
    summary: (params, result) =>
      `changed the own capabilities of ${userWithLogin(result, params.user_id)}${params.add_capabilities?.length ? ` +${params.add_capabilities.join(', +')}` : ''}${params.remove_capabilities?.length ? ` -${params.remove_capabilities.join(', -')}` : ''}`,
  },
  async review(context, params) {
    const { user, before, after } = await guard(context, params);
    const { gained, lost } = capsDiff(before, after);
    const parts = [`change ${user.username}'s capabilities: ${[gained.length ? `grant ${gained.join(', ')}` : '', lost.length ? `take away ${lost.join(', ')}` : ''].filter(Boolean).join(', ') || 'nothing changes'}`];
    const power = powerWords(gained);
    if (power) parts.push(`it grants power: ${power}`);
    const lostPower = powerWords(lost);
    if (lostPower) parts.push(`it takes away: ${lostPower}`);
    return { approval: gained.some(isPowerful) || lost.some(isPowerful) ? 'required' : 'none', summary: parts.join('; ') };
  },
  async execute(context, params) {
    const { user, own } = await guard(context, params);
    const done = await putUserCaps(context.client, user.id, own);
    const granted = Object.keys(done.capabilities).filter((c) => done.capabilities[c]);
    const denied = Object.keys(done.capabilities).filter((c) => done.capabilities[c] === false);
    return { id: done.id, username: done.username, roles: done.roles, granted, denied };
  },
});

/** The account guards and the plugin's rules, said first: a stronger account, a grant beyond the caller's, the last administrator. */
async function guard(context: ToolContext, params: Params) {
  const planned = await plan(context, params);
  const { client } = context;
  await refuseStrongerAccount(client, planned.user.id, 'change the capabilities of');
  const { lost } = capsDiff(planned.before, planned.after);
  // The same rules as a role's: here the "role" is the account's own entries, held by no one else.
  await guardRoleChange(client, { slug: `user:${planned.user.id}`, name: planned.user.username, from: planned.before, to: planned.after, users: 1 });
  // The plugin's own judgment (0.7.0: denials included, the effective map before and after), asked without writing.
  if (await hasCompanion(client, 'roles/judge')) await putUserCaps(client, planned.user.id, planned.own, true);
  if (lost.includes('manage_options')) {
    const { users } = await capabilityHolders(client, 'manage_options', 500);
    if (!users.some((u) => u.id !== planned.user.id && !u.disabled))
      throw refusal('last_administrator', `${planned.user.username} is the last enabled account with manage_options; taking it away would leave the site without an administrator. Nothing was changed.`);
  }
  return planned;
}
