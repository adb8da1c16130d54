import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, companionEntry } from '../companion.js';
import type { CallReview } from '../define-tool.js';
import { refusal } from '../refusals.js';
import { isPowerful, powerWords } from './capability-words.js';
import { capabilitiesBeyond } from './guards.js';
import { loadRoles } from './roles.js';

/**
 * One role change (create, update, delete) checked and said the same way by every role tool
 * and by an undo: the rules the companion plugin enforces (roles-editor.php), said first with
 * the reason, and the question naming each powerful capability in plain words (issue #50).
 */
export type Caps = Record<string, boolean>;

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

export const grantedOf = (caps: Caps | null) => Object.keys(caps ?? {}).filter((cap) => caps?.[cap]).sort();

export function capsDiff(from: Caps | null, to: Caps | null): { gained: string[]; lost: string[] } {
  const was = new Set(grantedOf(from));
  const is = new Set(grantedOf(to));
  return { gained: [...is].filter((c) => !was.has(c)), lost: [...was].filter((c) => !is.has(c)) };
}

const list = (caps: string[]) => `${caps.slice(0, 5).join(', ')}${caps.length > 5 ? ', …' : ''}`;

/** Refuses what WordPress (the companion plugin) would refuse, before anyone is asked. */
export async function guardRoleChange(client: WordPressClient, change: RoleChange): Promise<void> {
  const [me, entry, roles] = await Promise.all([client.connect(), companionEntry(client), loadRoles(client)]);
  const names = roles.items.map((r) => r.role);
  const { gained, lost } = capsDiff(change.from, change.to);
  // A role's name is no capability: the plugin's roles editor refuses it (cms_admin_invalid_capability).
  const roleNames = gained.filter((cap) => names.includes(cap));
  if (roleNames.length)
    throw refusal('invalid_capability', `${list(roleNames)} ${roleNames.length === 1 ? 'is a role, not a capability' : 'are roles, not capabilities'}. Nothing was changed.`, { capabilities: roleNames.slice(0, 20) });
  if (entry?.super_admin !== true) {
    const stronger = change.from ? capabilitiesBeyond(grantedOf(change.from), me.capabilities, names) : [];
    if (stronger.length)
      throw refusal('role_stronger_than_caller', `The role ${change.slug} grants capabilities your account (${me.username}) does not hold (${list(stronger)}): only an account with them may change or delete it. Nothing was changed.`, { capabilities: stronger.slice(0, 20) });
    const beyond = capabilitiesBeyond(gained, me.capabilities, names);
    if (beyond.length)
      throw refusal('capability_beyond_caller', `Your account (${me.username}) does not hold ${list(beyond)}, so it cannot grant ${beyond.length === 1 ? 'it' : 'them'}: nobody grants more than they have. Nothing was changed.`, { capabilities: beyond.slice(0, 20) });
    if (me.roles.includes(change.slug) && (lost.length || !change.to))
      throw refusal('cannot_change_own_capabilities', `Your account (${me.username}) has the role ${change.slug}: this would take capabilities from yourself (${list(lost)}). Nothing was changed.`);
  }
  if (lost.includes('manage_options')) await refuseLastManager(client, change);
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

async function refuseLastManager(client: WordPressClient, change: RoleChange): Promise<void> {
  const { users } = await capabilityHolders(client, 'manage_options', 500);
  const moveGrants = change.moveTo && (await loadRoles(client)).items.find((r) => r.role === change.moveTo)?.capabilities.includes('manage_options');
  const keeps = (u: Holder) =>
    u.through.some((t) => t !== change.slug) || (!change.to && moveGrants && u.roles.includes(change.slug));
  if (users.some((u) => !u.disabled && keeps(u)) || !users.length) return;
  throw refusal('last_administrator', `No enabled account would keep manage_options (the last administrator): ${users.map((u) => u.username).slice(0, 5).join(', ')} ${users.length === 1 ? 'has' : 'have'} it only through ${change.slug}. Nothing was changed.`);
}

/** The question: asked whenever a powerful capability is granted, or accounts lose access. */
export function reviewRoleChange(change: RoleChange, summary: string): CallReview {
  const { gained, lost } = capsDiff(change.from, change.to);
  const power = powerWords(gained.filter(isPowerful));
  const people = change.users ? ` (${change.users} account${change.users === 1 ? '' : 's'} ${change.users === 1 ? 'has' : 'have'} it)` : '';
  const parts = [`${summary}${people}`];
  if (power) parts.push(`it grants power: ${power}`);
  const lostPower = powerWords(lost);
  if (lostPower && change.users) parts.push(`its accounts lose: ${lostPower}`);
  const ask = Boolean(power) || (change.users > 0 && (lost.length > 0 || !change.to));
  return { approval: ask ? 'required' : 'none', summary: parts.join('; ') };
}

/** `capabilities` as given: each granted. */
export function capsFrom(given: readonly string[] | undefined): Caps {
  return Object.fromEntries((given ?? []).map((c) => [c.trim(), true]));
}

/** Adds (granted) and removes (gone from the role) capabilities; returns the new map. */
export function applyCaps(base: Caps, add: readonly string[] = [], remove: readonly string[] = []): Caps {
  const out = { ...base };
  for (const cap of add) out[cap.trim()] = true;
  for (const cap of remove) delete out[cap.trim()];
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
