import { z } from 'zod';
import { defineTool, type ToolContext } from '../define-tool.js';
import { hasCompanion } from '../companion.js';
import { bulkAccountsOutput } from '../output-schemas.js';
import { text, wpId } from '../schema.js';
import { ToolError } from '../tool-error.js';
import type { AccountRolesDone } from '../undo-data.js';
import { none, required } from './risk.js';
import { resolveRole } from './roles.js';
import { accountsWithRole, type AccountStep, readAccounts, unseenAccounts, roleJudge } from './role-plan.js';
import { accountReport, gainersLine } from './account-report.js';
import { writeRolesBulk, writeRolesOneByOne } from './set-roles-write.js';
import { toUserState } from './user-state.js';

/**
 * A role change for many accounts at once (#50): by role (`from_role`) or by ids, one question
 * with the count and every account that gains power, each account judged by the guards of
 * set-user-role, one journal entry an undo takes back whole. With the companion plugin (0.7.0)
 * each account is changed only if it still has the roles it was planned on (#59.9: another
 * administrator's change meanwhile stays, and the account is named as skipped), many a request
 * (set-roles-write.ts); without it, `/batch/v1`.
 */
type Params = { from_role?: string; user_ids?: number[]; to_role: string };
type Plan = Awaited<ReturnType<typeof plan>>;

export const MAX_ACCOUNTS = 10_000;

async function plan({ client }: ToolContext, params: Params) {
  if ((params.from_role === undefined) === (params.user_ids === undefined)) {
    throw new ToolError('invalid_params', 'Give either from_role or user_ids (not both). Nothing was changed.', {
      hint: 'from_role: every account with that role; user_ids: these accounts.',
    });
  }
  const accounts = params.from_role !== undefined
    ? await accountsWithRole(client, await resolveRole(client, params.from_role))
    : await readAccounts(client, params.user_ids ?? []);
  const hidden = params.user_ids ? await unseenAccounts(client, params.user_ids, accounts) : [];
  if (accounts.length > MAX_ACCOUNTS)
    throw new ToolError('too_many_accounts', `${accounts.length} accounts match; one call changes at most ${MAX_ACCOUNTS}. Nothing was changed.`, {
      hint: 'Split the change by user_ids.',
    });
  const judge = await roleJudge(client, params.to_role, accounts.map((a) => a.id));
  return { role: judge.role, accounts, steps: [...accounts.map((a) => judge.step(a)), ...hidden] };
}

/**
 * The plan the journal's scope read, taken by the execute of the same call (runTool hands both
 * the same params object): one reading is the state before, the plan and each account's
 * precondition (#61: the journal's reads batched with the write).
 */
const planned = new WeakMap<object, Promise<Plan>>();

const toChange = (steps: AccountStep[]) => steps.filter((s) => s.outcome === 'change');

export const setUsersRole = defineTool({
  name: 'set-users-role',
  toolkit: 'users',
  description: 'Give many users one role: every user with from_role, or user_ids. Per-user results.',
  schema: () => z.strictObject({
    from_role: text().optional().describe('Every user with this role'),
    user_ids: z.array(wpId()).min(1).max(1000).optional().describe('Or these users'),
    to_role: text().describe('New role'),
  }),
  outputSchema: bulkAccountsOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: {
    // The accounts it will change, as the plan read them: the undo gives each its roles back.
    scope: async (context, params) => {
      const made = plan(context, params);
      planned.set(params, made);
      const { steps, accounts } = await made;
      const ids = new Set(toChange(steps).map((s) => s.id));
      const known = accounts.filter((a) => ids.has(a.id)).map((a) => [String(a.id), toUserState(a as unknown as Record<string, unknown>)]);
      return { users: [...ids], knownUsers: Object.fromEntries(known) };
    },
    // What the route changed, account by account (not the plan): skipped and refused ones are not journalled.
    done: (result: { roles_done?: Record<string, AccountRolesDone> }) => (result.roles_done ? { account_roles: result.roles_done } : undefined),
    summary: (params, result: { role?: string; counts?: Record<string, number> }) =>
      `set the role of ${result.counts?.changed ?? 0} user(s) to ${result.role ?? params.to_role}${params.from_role ? ` (were ${params.from_role})` : ''}`,
  },
  async review(context, params) {
    const { role, steps } = await plan(context, params);
    const changing = toChange(steps);
    const refused = steps.filter((s) => s.outcome === 'refused').length;
    const skipped = steps.length - changing.length - refused;
    const from = params.from_role ? ` (every ${params.from_role})` : '';
    const rest = [skipped && `${skipped} already ${role}`, refused && `${refused} refused`].filter(Boolean).join(', ');
    const summary = `give ${changing.length} account(s)${from} the role ${role}${rest ? ` (${rest})` : ''}${gainersLine(changing)}`;
    // Nothing to change asks no one; any change of many accounts' roles is a person's decision.
    return changing.length ? required(summary) : none(summary);
  },
  async preview(context, params) {
    const { role, steps } = await plan(context, params);
    return { would: `give ${toChange(steps).length} account(s) the role ${role}`, ...accountReport(role, steps, 'would') };
  },
  async execute(context, params) {
    // The scope's plan; planned again if it failed (its entry then says it cannot be undone).
    const made = planned.get(params)?.catch(() => plan(context, params)) ?? plan(context, params);
    planned.delete(params);
    const { role, steps } = await made;
    if (await hasCompanion(context.client, 'users/bulk-roles')) {
      const { done, roles_done } = await writeRolesBulk(context.client, role, steps);
      return { ...accountReport(role, done, 'done'), roles_done };
    }
    return accountReport(role, await writeRolesOneByOne(context.client, role, steps), 'done');
  },
  answer: (result: { roles_done?: unknown } & Record<string, unknown>) => {
    const { roles_done: _done, ...rest } = result;
    return rest;
  },
});

