import { chunk, type WordPressClient, WordPressError } from '../../client/index.js';
import { explainGuardError } from './write-errors.js';
import { ToolError } from '../tool-error.js';
import { capabilitiesBeyond, capabilityMap, capabilityNames } from './capability-maps.js';
import { refuseStrongerRole, warnOldPlugin } from './guards.js';
import { loadRoles, resolveRole } from './roles.js';
import { rolePowers } from './risk.js';
import { USER_STATE_FIELDS } from './user-state.js';

/**
 * Who a bulk role change (set-users-role, import-users) touches and what each account would
 * gain, read from the site, with the per-account guards said before anything is written: no
 * one changes their own role or a stronger account's, no one gives a role above their own, and
 * the last account with manage_options keeps it (#50). Power is judged by capabilities.
 */
export interface RawAccount {
  id: number;
  username: string;
  email?: string;
  roles?: string[];
  capabilities?: Record<string, boolean>;
}

export interface AccountStep {
  id: number;
  username: string;
  roles: string[];
  /** change: will get `to`; skip: has it already; refused: a guard says no (reason). */
  outcome: 'change' | 'skip' | 'refused';
  reason?: string;
  /** Powerful capabilities the new role adds to this account. */
  gains: string[];
  /** Powerful capabilities it takes away. */
  loses: string[];
}

/** What the guards need, and what the journal keeps (USER_STATE_FIELDS): the plan is the state before (#61). */
export const ACCOUNT_FIELDS = `${USER_STATE_FIELDS},capabilities`;

/** Accounts by id, 100 a request; ids WordPress does not show are left out (the caller says so). */
export async function readAccounts(client: WordPressClient, ids: readonly number[]): Promise<RawAccount[]> {
  const out: RawAccount[] = [];
  for (const include of chunk([...new Set(ids)], 100)) {
    out.push(
      ...(await client.get<RawAccount[]>('/wp/v2/users', { include, per_page: 100, context: 'edit', _fields: ACCOUNT_FIELDS })),
    );
  }
  return out;
}

/** Every account holding `role` (WordPress's `roles` filter), in id order. */
export function accountsWithRole(client: WordPressClient, role: string): Promise<RawAccount[]> {
  return client.all<RawAccount>('/wp/v2/users', { roles: role, context: 'edit', _fields: ACCOUNT_FIELDS, orderby: 'id', order: 'asc' });
}

export interface RoleJudge {
  role: string;
  /** What giving `role` to `account` would do, guards included. */
  step(account: RawAccount): AccountStep;
}

/**
 * Builds the judge for giving `wanted` (a slug or label) to accounts; refuses at once a role
 * above the caller's. `manageOptionsHolders`: every account with manage_options now, so the
 * last ones are never all taken away (`changing`: the ids this call would change).
 */
export async function roleJudge(client: WordPressClient, wanted: string, changing: readonly number[]): Promise<RoleJudge> {
  const role = await resolveRole(client, wanted);
  await refuseStrongerRole(client, role);
  const [me, powersOf, roles, holders] = await Promise.all([
    client.connect(),
    rolePowers(client),
    loadRoles(client),
    client.all<{ id: number }>('/wp/v2/users', { capabilities: 'manage_options', _fields: 'id', context: 'edit' }),
    warnOldPlugin(client),
  ]);
  const names = capabilityNames(roles.items);
  const target = powersOf(role);
  const keepsOptions = target.includes('manage_options') || roles.items.find((r) => r.role === role)?.capabilities.includes('manage_options') === true;
  const changingSet = new Set(changing);
  const keepers = holders.filter((h) => !changingSet.has(h.id)).length;
  return {
    role,
    step(account) {
      const current = account.roles ?? [];
      const base = { id: account.id, username: account.username, roles: current };
      const before = new Set(current.flatMap(powersOf));
      const gains = target.filter((cap) => !before.has(cap));
      const loses = [...before].filter((cap) => !target.includes(cap));
      const plan = { ...base, gains, loses };
      if (current.length === 1 && current[0] === role) return { ...plan, outcome: 'skip', reason: `already ${role}` };
      if (account.id === me.id) return { ...plan, outcome: 'refused', reason: 'an account cannot change its own role' };
      const beyond = capabilitiesBeyond(capabilityMap(account.capabilities ?? {}, current, names), me.capabilities);
      if (beyond.length)
        return { ...plan, outcome: 'refused', reason: `holds capabilities your account lacks (${beyond.slice(0, 3).join(', ')})` };
      if (account.capabilities?.manage_options && !keepsOptions && keepers === 0)
        return { ...plan, outcome: 'refused', reason: 'the last account with manage_options keeps it' };
      return { ...plan, outcome: 'change' };
    },
  };
}

/**
 * The user_ids the collection did not show: unknown ones are an error naming them, before
 * anything is asked; ones WordPress hides from the caller (the companion plugin hides stronger
 * accounts from the edit listing) are refused steps, with WordPress's reason.
 */
export async function unseenAccounts(client: WordPressClient, ids: readonly number[], found: readonly RawAccount[]): Promise<AccountStep[]> {
  const seen = new Set(found.map((a) => a.id));
  const steps: AccountStep[] = [];
  const missing: number[] = [];
  for (const id of [...new Set(ids)].filter((id) => !seen.has(id))) {
    const refused = (reason: string): AccountStep => ({ id, username: `user ${id}`, roles: [], outcome: 'refused', reason, gains: [], loses: [] });
    try {
      await client.get(`/wp/v2/users/${id}`, { context: 'edit', _fields: 'id' });
      steps.push(refused('WordPress does not list it to your account'));
    } catch (err) {
      if (err instanceof WordPressError && (err.status === 404 || err.code === 'rest_user_invalid_id')) missing.push(id);
      else {
        const explained = explainGuardError(err);
        steps.push(refused(explained instanceof Error ? explained.message.replace(/ Nothing was changed\.$/, '') : String(explained)));
      }
    }
  }
  if (missing.length)
    throw new ToolError('user_not_found', `No user with id ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}. Nothing was changed.`, {
      hint: 'Use list-users to find the users’ ids.',
    });
  return steps;
}
