import type { ToolContext } from '../tools/define-tool.js';
import { refusal, type RefusalCode } from '../tools/refusals.js';
import { ToolError } from '../tools/tool-error.js';
import { capabilitiesBeyond, capabilityMap, capabilityNames } from '../tools/users/capability-maps.js';
import { warnOldPlugin } from '../tools/users/guards.js';
import { type RawAccount, readAccounts } from '../tools/users/role-plan.js';
import { loadRoles } from '../tools/users/roles.js';
import type { UserState } from '../undo/types.js';
import { type Bulk, plural, tally } from './undo-lines.js';

/**
 * Many accounts in one undo (an import's, a bulk role change's), asked in one line each kind
 * (#60.5) with the refusals delete-user and set-user-role make for one account — the caller's
 * own account, an account stronger than the caller, the last administrator — checked for all
 * of them in a few requests (their capabilities 100 a request), not a review per account.
 */
export interface AccountChange {
  id: number;
  is: UserState;
  want: UserState | null;
}

/**
 * Logins in alphabetical order: ids are no order a person knows (an import's batches run a few at
 * once, so its accounts' ids interleave the file's rows; #60.5 "names out of order").
 */
const names = (changes: readonly AccountChange[]) =>
  changes.map((c) => c.is.username).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));

/** Refuses the whole undo when one of the accounts may not be acted on; returns them as read. */
async function guard(context: ToolContext, changes: readonly AccountChange[], what: string, self?: RefusalCode | 'cannot_demote_self') {
  const { client } = context;
  const [me, accounts] = await Promise.all([client.connect(), readAccounts(client, changes.map((c) => c.id)), warnOldPlugin(client)]);
  const mine = changes.find((c) => c.id === me.id);
  if (mine && self) {
    const message = `User ${me.id} (${me.username}) is the account this toolkit is signed in as: it cannot ${what} its own account. Nothing was changed.`;
    throw self === 'cannot_demote_self' ? new ToolError(self, message, { hint: 'Change this account’s roles from another administrator account.' }) : refusal(self, message);
  }
  // Judged from capability maps (#58), the site's roles read once for all of them.
  const others = accounts.filter((a) => a.id !== me.id);
  const names = others.length ? capabilityNames((await loadRoles(client)).items) : undefined;
  const beyondOf = others.map((a) => (names ? capabilitiesBeyond(capabilityMap(a.capabilities ?? {}, a.roles ?? [], names), me.capabilities) : []));
  const stronger = others.filter((_, i) => beyondOf[i]?.length);
  if (stronger.length) {
    const beyond = beyondOf.find((b) => b.length) ?? [];
    const who = stronger.slice(0, 5).map((a) => a.username).join(', ') + (stronger.length > 5 ? ` and ${stronger.length - 5} more` : '');
    throw refusal('account_stronger_than_caller', `You cannot ${what} ${who}: ${stronger.length === 1 ? 'that account holds' : 'those accounts hold'} capabilities yours (${me.username}) does not (${beyond.slice(0, 5).join(', ')}). Nothing was changed.`, { capabilities: beyond.slice(0, 20) });
  }
  return accounts;
}

/** The last enabled accounts with manage_options are never all taken away (delete-user, set-user-role). */
async function keepLastAdministrator(context: ToolContext, losing: readonly RawAccount[], what: string): Promise<void> {
  const admins = losing.filter((a) => a.capabilities?.manage_options);
  if (!admins.length) return;
  const holders = await context.client.all<{ id: number; cms_disabled?: boolean }>('/wp/v2/users', {
    capabilities: 'manage_options',
    context: 'edit',
    _fields: 'id,cms_disabled',
  });
  const gone = new Set(losing.map((a) => a.id));
  if (holders.some((h) => !gone.has(h.id) && h.cms_disabled !== true)) return;
  throw refusal('last_administrator', `${admins.map((a) => a.username).join(', ')} ${admins.length === 1 ? 'is' : 'are'} the last enabled administrator(s); ${what} would leave the site without one. Nothing was changed.`);
}

/**
 * The accounts the change created, deleted (as delete-user says it for one: roles, where the
 * posts go, "cannot be undone"). The engine deletes only accounts that own nothing now (the
 * others are its conflicts, said after), giving nothing to the caller.
 */
export async function bulkDeletion(context: ToolContext, changes: readonly AccountChange[]): Promise<Bulk> {
  const accounts = await guard(context, changes, 'delete', 'cannot_delete_self');
  await keepLastAdministrator(context, accounts, 'deleting them');
  const roles = tally(changes.flatMap((c) => (c.is.roles.length ? c.is.roles : ['none'])));
  return {
    head: `delete ${plural(changes.length, 'account')} (roles: ${roles}), which own no posts`,
    names: names(changes),
    tail: 'this cannot be undone',
  };
}

/**
 * Accounts given back their roles, one line per role they get (as set-users-role asks: "give 40
 * account(s) the role author"), the role's power named, what they have now counted.
 */
export async function bulkRoles(
  context: ToolContext,
  changes: readonly AccountChange[],
  powers: (roles: readonly string[]) => Promise<string>,
): Promise<Bulk[]> {
  const accounts = await guard(context, changes, 'change the roles of', 'cannot_demote_self');
  const wanted = new Map<string, AccountChange[]>();
  for (const c of changes) {
    const key = [...(c.want?.roles ?? [])].sort().join(', ');
    wanted.set(key, [...(wanted.get(key) ?? []), c]);
  }
  const keepsOptions = await manageOptionsRoles(context);
  const losing = accounts.filter((a) => {
    const want = changes.find((c) => c.id === a.id)?.want?.roles ?? [];
    return !want.some((r) => keepsOptions.has(r));
  });
  await keepLastAdministrator(context, losing, 'taking their roles');
  const lines: Bulk[] = [];
  for (const [key, group] of wanted) {
    const was = tally(group.map((c) => c.is.roles.join(' + ') || 'no role'));
    const roles = key ? key.split(', ') : [];
    const head = roles.length
      ? `give ${plural(group.length, 'account')} the role${roles.length === 1 ? '' : 's'} ${await powers(roles)} (now: ${was})`
      : `take every role from ${plural(group.length, 'account')} (now: ${was})`;
    lines.push({ head, names: names(group) });
  }
  return lines;
}

/** Roles that grant manage_options (the companion plugin's list; without it: administrator). */
async function manageOptionsRoles(context: ToolContext): Promise<Set<string>> {
  const { source, items } = await loadRoles(context.client);
  if (source !== 'site') return new Set(['administrator']);
  return new Set(items.filter((r) => r.capabilities.includes('manage_options')).map((r) => r.role));
}

/** Fields other than roles and the disabled state put back (as update-user would), one line. */
export async function bulkFields(context: ToolContext, changes: readonly AccountChange[], fieldsOf: (c: AccountChange) => string[]): Promise<Bulk> {
  await guard(context, changes, 'edit');
  const fields = [...new Set(changes.flatMap(fieldsOf))];
  return { head: `change back ${plural(changes.length, 'account')}' ${fields.join(', ')}`, names: names(changes) };
}
