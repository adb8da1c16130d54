import type { WordPressClient } from '../../client/index.js';
import { COMPANION_ROUTES, companionVersion, compareVersions } from '../companion.js';
import { refusal } from '../refusals.js';
import { forUser } from './records.js';
import { loadRoles } from './roles.js';
import { explainGuardError } from './write-errors.js';
import { type Caps, capabilitiesBeyond, capabilityMap, capabilityNames, isKnownCapability, roleGrants } from './capability-maps.js';

export { capabilitiesBeyond } from './capability-maps.js';

/**
 * The stronger-account rule, said before anything is sent. WordPress maps `edit_user` to
 * `edit_users` alone on a single site, so without the companion plugin a "user manager" could
 * set an administrator's email and password. The plugin (0.3.0, capability-guards.php) makes
 * WordPress itself refuse; these checks give the same answer first, with the reason, and also
 * where the plugin is missing.
 */

/**
 * A plugin older than 0.3.0 lets core's routes and wp-admin act on stronger accounts (0.3.0:
 * create accounts with a default role above the creator's; before 0.4.0 its delete and
 * own-password guards checked the route's id, not the query's `id` WordPress acts on; before
 * 0.7.0 it judged a role slug that is a capability's name as no capability, and denials not at
 * all); the toolkit's own checks still hold, but anyone else's requests do not meet them. Said once.
 */
export async function warnOldPlugin(client: WordPressClient): Promise<void> {
  const version = await companionVersion(client);
  const need = COMPANION_ROUTES['user-guards'];
  if (version === undefined || compareVersions(version, need) >= 0) return;
  const lets =
    compareVersions(version, '0.4.0') >= 0
      ? 'an account holding a role named after a capability (made by anyone who may edit roles) hold that capability, and a denial on a weak role strip the stronger accounts holding it'
      : compareVersions(version, '0.3.1') >= 0
      ? 'a request delete the account it is signed in with, or the last administrator, or revoke its own application password, by naming it in the query (`?id=`), which WordPress obeys over the route'
      : compareVersions(version, '0.3.0') >= 0
        ? 'an account with create_users give a new account the default role even when it is above its own'
        : 'any account with edit_users or promote_users edit, promote or re-enable administrators';
  client.warnOnce(
    'companion-user-guards',
    `Update the companion plugin (have ${version}, need ${need} for user-guards): until then WordPress itself lets ${lets} (wp-admin, core REST routes); only this toolkit refuses.`,
  );
}

/**
 * Capabilities `account` holds (WordPress's `allcaps`, the REST `capabilities` field) that `me`
 * does not, most dangerous first. Its keys that are only role slugs are not capabilities; a slug
 * that is a capability name is (capability-maps.ts): the site's roles are read only to tell.
 */
export async function accountBeyond(
  client: WordPressClient,
  account: { capabilities?: Caps; roles?: string[] },
  mine: Caps,
): Promise<string[]> {
  const all = account.capabilities ?? {};
  const roles = account.roles ?? [];
  const undecided = roles.some((role) => all[role] && !mine[role] && !isKnownCapability(role));
  const names = undecided ? capabilityNames((await loadRoles(client)).items) : { has: isKnownCapability };
  return capabilitiesBeyond(capabilityMap(all, roles, names), mine);
}

const list = (caps: string[]) => `${caps.slice(0, 5).join(', ')}${caps.length > 5 ? ', …' : ''}`;

/** Refuses `what` ("edit", "enable", …) on user `id` when it holds a capability the signed-in account lacks. */
export async function refuseStrongerAccount(client: WordPressClient, id: number, what: string): Promise<void> {
  const [me, , target] = await Promise.all([
    client.connect(),
    warnOldPlugin(client),
    forUser(id, () =>
      client.get<{ username?: string; roles?: string[]; capabilities?: Record<string, boolean> }>(`/wp/v2/users/${id}`, {
        context: 'edit',
        _fields: 'username,roles,capabilities',
      }),
    ).catch((err) => {
      // The plugin (0.3.0) refuses even to show a stronger account's edit view, with the reason.
      throw explainGuardError(err);
    }),
  ]);
  if (me.id === id) return;
  const beyond = await accountBeyond(client, target, me.capabilities);
  if (!beyond.length) return;
  throw refusal('account_stronger_than_caller', `You cannot ${what} ${target.username ?? `user ${id}`}: that account holds capabilities yours (${me.username}) does not (${list(beyond)}). Nothing was changed.`, { capabilities: beyond.slice(0, 20) });
}

/** Refuses giving `role` when it grants a capability the signed-in account lacks (no one promotes above their own level). */
export async function refuseStrongerRole(client: WordPressClient, role: string, isDefault = false): Promise<void> {
  const [me, roles] = await Promise.all([client.connect(), loadRoles(client), warnOldPlugin(client)]);
  const found = roles.items.find((r) => r.role === role);
  if (!found) return; // unknown here: WordPress checks it (editable_roles)
  // WordPress's own answer where the plugin gives it (meta capabilities such as upload_plugins
  // are mapped: an administrator holds it through install_plugins); else the account's capabilities.
  const beyond = found.beyond_caller ?? capabilitiesBeyond(roleGrants(role, found.capabilities, capabilityNames(roles.items)), me.capabilities);
  if (!beyond.length) return;
  throw refusal('role_stronger_than_caller', `The ${isDefault ? 'site’s default role' : 'role'} ${role} grants capabilities the toolkit’s account (${me.username}) does not hold (${list(beyond)}); an account may only give roles up to its own. Nothing was changed.`, { capabilities: beyond.slice(0, 20) });
}
