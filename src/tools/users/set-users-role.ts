import { z } from 'zod';
import { defineTool, type ToolContext } from '../define-tool.js';
import { bulkAccountsOutput } from '../output-schemas.js';
import { text, wpId } from '../schema.js';
import { ToolError } from '../tool-error.js';
import { none, required } from './risk.js';
import { resolveRole } from './roles.js';
import { accountsWithRole, type AccountStep, readAccounts, unseenAccounts, roleJudge } from './role-plan.js';
import { accountReport, gainersLine, type ReportStep } from './account-report.js';
import { explainGuardError } from './write-errors.js';
import { sendMany } from './user-writes.js';

/**
 * A role change for many accounts at once (#50): by role (`from_role`) or by ids, one question
 * with the count and every account that gains power, each account judged by the guards of
 * set-user-role, the writes batched (`/batch/v1`), one journal entry an undo takes back whole.
 */
type Params = { from_role?: string; user_ids?: number[]; to_role: string };

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
  return { role: judge.role, steps: [...accounts.map((a) => judge.step(a)), ...hidden] };
}

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
    // The accounts it will change, as they are: the undo gives each its roles back.
    scope: async (context, params) => ({ users: toChange((await plan(context, params)).steps).map((s) => s.id) }),
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
    const { client } = context;
    const { role, steps } = await plan(context, params);
    const changing = toChange(steps);
    const results = await sendMany(client, changing.map((s) => ({ path: `/wp/v2/users/${s.id}`, body: { roles: [role] } })));
    const byId = new Map(changing.map((s, i) => [s.id, results[i]]));
    const done = steps.map((step): ReportStep => {
      const result = byId.get(step.id);
      if (!result || result.ok) return step;
      const err = explainGuardError(result.error);
      return { ...step, outcome: 'failed', reason: err instanceof Error ? err.message : String(err) };
    });
    return accountReport(role, done, 'done');
  },
});
