import type { WordPressClient } from '../../client/index.js';
import { companionEntry } from '../companion.js';
import type { CallReview } from '../define-tool.js';
import { refusal } from '../refusals.js';
import { type Caps, capabilitiesBeyond, capabilityNames, changedEntries, neverBeyond, roleGrants } from './capability-maps.js';
import { isPowerful, powerWords } from './capability-words.js';
import { judgedByPlugin, type RoleChange, refuseLastManager, refuseStrongerHolders } from './role-holders.js';
import { loadRoles } from './roles.js';

export { capabilityHolders, type RoleChange } from './role-holders.js';
export type { Caps } from './capability-maps.js';

/**
 * One role change (create, update, delete) checked and said the same way by every role tool
 * and by an undo: the rules the companion plugin enforces (roles-editor.php, role-effects.php),
 * said first with the reason, and the question naming each powerful capability in plain words
 * (issues #50, #58). Power is judged from capability maps (capability-maps.ts).
 */

export const grantedOf = (caps: Caps | null) => Object.keys(caps ?? {}).filter((cap) => caps?.[cap]).sort();
const deniedOf = (caps: Caps | null) => Object.keys(caps ?? {}).filter((cap) => caps?.[cap] === false).sort();

export function capsDiff(from: Caps | null, to: Caps | null): { gained: string[]; lost: string[] } {
  const was = new Set(grantedOf(from));
  const is = new Set(grantedOf(to));
  return { gained: [...is].filter((c) => !was.has(c)), lost: [...was].filter((c) => !is.has(c)) };
}

const list = (caps: string[]) => `${caps.slice(0, 5).join(', ')}${caps.length > 5 ? ', …' : ''}`;
/** An account's own entries, not a role (update-user-capabilities, an undo of them). */
const isAccount = (change: RoleChange) => change.slug.startsWith('user:');

/** Refuses what WordPress (the companion plugin) would refuse, before anyone is asked. */
export async function guardRoleChange(client: WordPressClient, change: RoleChange): Promise<void> {
  const [me, entry, roles] = await Promise.all([client.connect(), companionEntry(client), loadRoles(client)]);
  const names = capabilityNames(roles.items);
  const slugs = roles.items.map((r) => r.role);
  // A capability is judged by what it is (#58): no role takes a capability's name as its slug…
  if (!isAccount(change) && !change.from && change.to && names.has(change.slug))
    throw refusal('role_slug_is_capability', `${change.slug} is a capability’s name: a role named so would give that capability to every account holding it. Nothing was changed.`);
  const changed = changedEntries(change.from, change.to);
  // …and no entry is named after a role that is not a capability (the plugin refuses it: cms_admin_invalid_capability).
  const roleNames = changed.filter((cap) => slugs.includes(cap) && !names.has(cap) && change.to?.[cap] !== undefined);
  if (roleNames.length)
    throw refusal('invalid_capability', `${list(roleNames)} ${roleNames.length === 1 ? 'is a role, not a capability' : 'are roles, not capabilities'}. Nothing was changed.`, { capabilities: roleNames.slice(0, 20) });
  if (entry?.super_admin !== true) {
    const held = isAccount(change) ? grantedOf(change.from) : roleGrants(change.slug, grantedOf(change.from), names);
    const stronger = change.from ? capabilitiesBeyond(held, me.capabilities) : [];
    if (stronger.length)
      throw refusal('role_stronger_than_caller', `The role ${change.slug} grants capabilities your account (${me.username}) does not hold (${list(stronger)}): only an account with them may change or delete it. Nothing was changed.`, { capabilities: stronger.slice(0, 20) });
    // Every entry set, flipped or dropped — a denial too — is one the caller holds (finding 9).
    const beyond = changed.filter((cap) => !neverBeyond(cap) && !me.capabilities[cap]);
    if (beyond.length) {
      const grants = beyond.every((cap) => change.to?.[cap] === true);
      throw refusal('capability_beyond_caller', `Your account (${me.username}) does not hold ${list(beyond)}, so it cannot ${grants ? 'grant' : 'grant, deny or take away'} ${beyond.length === 1 ? 'it' : 'them'}: nobody gives or takes more than they have. Nothing was changed.`, { capabilities: beyond.slice(0, 20) });
    }
    const mine = lostBy(change).filter((cap) => me.capabilities[cap]);
    if (!isAccount(change) && me.roles.includes(change.slug) && (mine.length || !change.to))
      throw refusal('cannot_change_own_capabilities', `Your account (${me.username}) has the role ${change.slug}: this would take capabilities from yourself (${list(mine)}). Nothing was changed.`);
  }
  if (isAccount(change)) return;
  // What the change does to every account that holds the role (finding 2): the plugin's own judgment
  // when it can give it (0.7.0), else the holders read here.
  if (await judgedByPlugin(client, change)) return;
  if (entry?.super_admin !== true && change.users && lostBy(change).length) await refuseStrongerHolders(client, change.slug, me.capabilities);
  if (lostBy(change).includes('manage_options')) await refuseLastManager(client, change);
}

/** Capabilities the role's accounts may lose: grants it no longer gives, and new denials. */
export function lostBy(change: RoleChange): string[] {
  const { lost } = capsDiff(change.from, change.to);
  const denied = deniedOf(change.to).filter((cap) => change.from?.[cap] !== false);
  return [...new Set([...lost, ...denied])];
}

/** The question: asked whenever a powerful capability is granted or denied, or accounts lose access. */
export function reviewRoleChange(change: RoleChange, summary: string): CallReview {
  const { gained, lost } = capsDiff(change.from, change.to);
  const denied = deniedOf(change.to).filter((cap) => change.from?.[cap] !== false);
  const power = powerWords(gained.filter(isPowerful));
  const people = change.users ? ` (${change.users} account${change.users === 1 ? '' : 's'} ${change.users === 1 ? 'has' : 'have'} it)` : '';
  const parts = [`${summary}${people}`];
  if (power) parts.push(`it grants power: ${power}`);
  const denies = powerWords(denied);
  if (denies) parts.push(`it denies${change.users ? ' its accounts' : ''}: ${denies}`);
  const lostPower = powerWords(lost.filter((cap) => !denied.includes(cap)));
  if (lostPower && change.users) parts.push(`its accounts lose: ${lostPower}`);
  const ask = Boolean(power) || Boolean(denies) || (change.users > 0 && (lost.length > 0 || denied.length > 0 || !change.to));
  return { approval: ask ? 'required' : 'none', summary: parts.join('; ') };
}

/** `capabilities` as given: each granted; `denied`, each denied (false). */
export function capsFrom(given: readonly string[] | undefined, denied: readonly string[] = []): Caps {
  return { ...Object.fromEntries((given ?? []).map((c) => [c.trim(), true])), ...Object.fromEntries(denied.map((c) => [c.trim(), false])) };
}

/** Adds (granted), denies (false) and removes (gone from the role) capabilities; returns the new map. */
export function applyCaps(base: Caps, add: readonly string[] = [], remove: readonly string[] = [], deny: readonly string[] = []): Caps {
  const out = { ...base };
  for (const cap of add) out[cap.trim()] = true;
  for (const cap of deny) out[cap.trim()] = false;
  for (const cap of remove) delete out[cap.trim()];
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
