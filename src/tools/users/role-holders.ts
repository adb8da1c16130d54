import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../companion.js';
import { refusal } from '../refusals.js';
import { type Caps, capabilitiesBeyond, capabilityMap, capabilityNames } from './capability-maps.js';
import { accountsWithRole } from './role-plan.js';
import { putRole, removeRole } from './role-routes.js';
import { loadRoles } from './roles.js';

/**
 * A role change judged by what it does to every account that holds the role (#58, finding 2):
 * nobody changes a role an account stronger than them holds, and the last account with
 * manage_options keeps it, denials included. The companion plugin (0.7.0) judges it exactly
 * (role-effects.php: each holder's map before and after, merged as WordPress merges them); asked
 * with `check`, it answers without writing. An older plugin does not, so the holders are read here.
 */

/** One role change: create (`from` null), update, delete (`to` null); or an account's own entries (`user:<id>`). */
export interface RoleChange {
  slug: string;
  name: string;
  /** null: the role does not exist yet. */
  from: Caps | null;
  /** null: the role is deleted. */
  to: Caps | null;
  users: number;
  moveTo?: string;
}

interface Holder {
  id: number;
  username: string;
  roles: string[];
  through: string[];
  /** false: held, but the site takes it from everyone (DISALLOW_FILE_MODS, DISALLOW_FILE_EDIT). */
  can?: boolean;
  disabled?: boolean;
}

/** The accounts that hold `cap`, and through what (companion plugin 0.6.0). */
export async function capabilityHolders(client: WordPressClient, cap: string, perPage = 200) {
  return client.get<{ capability: string; roles: string[]; total: number; users: Holder[] }>(
    `/${COMPANION_NAMESPACE}/capabilities/${encodeURIComponent(cap)}/users`,
    { per_page: perPage },
  );
}

/**
 * The plugin's own verdict on the change, when it can give one (0.7.0): its refusal is thrown as
 * the toolkit's; true when it judged (and allowed) the change.
 */
export async function judgedByPlugin(client: WordPressClient, change: RoleChange): Promise<boolean> {
  if (!(await hasCompanion(client, 'roles/judge'))) return false;
  if (change.to) await putRole(client, change.slug, { name: change.name, capabilities: change.to, create: !change.from, check: true });
  // The default roles' rule is the tool's to say (delete-role's force): here only the effects are judged.
  else await removeRole(client, change.slug, change.moveTo, true, true);
  return true;
}

/** Refuses when an account holding `slug` holds capabilities `mine` lacks (the plugin before 0.7.0 does not). */
export async function refuseStrongerHolders(client: WordPressClient, slug: string, mine: Caps): Promise<void> {
  const [holders, roles] = await Promise.all([accountsWithRole(client, slug), loadRoles(client)]);
  const names = capabilityNames(roles.items);
  for (const account of holders) {
    const beyond = capabilitiesBeyond(capabilityMap(account.capabilities ?? {}, account.roles ?? [], names), mine);
    if (beyond.length)
      throw refusal('account_stronger_than_caller', `${account.username} holds the role ${slug} and capabilities yours does not (${beyond.slice(0, 5).join(', ')}${beyond.length > 5 ? ', …' : ''}): changing the role would change a stronger account. Nothing was changed.`, { capabilities: beyond.slice(0, 20) });
  }
}

/**
 * No enabled account would keep manage_options: refused. An account keeps it through its own grant,
 * super admin, a role the change does not touch, or the role as changed (a denial there takes it:
 * the order WordPress merges roles in is not known here, so no other role is counted on).
 */
export async function refuseLastManager(client: WordPressClient, change: RoleChange): Promise<void> {
  const { users } = await capabilityHolders(client, 'manage_options', 500);
  const moveGrants = change.moveTo && (await loadRoles(client)).items.find((r) => r.role === change.moveTo)?.capabilities.includes('manage_options');
  const keeps = (u: Holder) => {
    if (!u.roles.includes(change.slug) || u.through.some((t) => t === 'own grant' || t === 'super admin')) return true;
    if (!change.to) return Boolean(moveGrants) || u.through.some((t) => t !== change.slug);
    if (change.to.manage_options !== undefined) return change.to.manage_options;
    return u.through.some((t) => t !== change.slug);
  };
  if (users.some((u) => !u.disabled && keeps(u)) || !users.length) return;
  throw refusal('last_administrator', `No enabled account would keep manage_options (the last administrator): ${users.map((u) => u.username).slice(0, 5).join(', ')} ${users.length === 1 ? 'has' : 'have'} it only through ${change.slug}. Nothing was changed.`);
}
