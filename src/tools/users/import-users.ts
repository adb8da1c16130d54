import { z } from 'zod';
import { chunk } from '../../client/index.js';
import { defineTool, type ToolContext } from '../define-tool.js';
import { bulkAccountsOutput } from '../output-schemas.js';
import { text } from '../schema.js';
import { ToolError } from '../tool-error.js';
import { none, required } from './risk.js';
import { gainersLine } from './account-report.js';
import { accessWords, checkDelivery, DELIVERY_DESCRIPTION, type Delivery } from './account-access.js';
import { type ImportParams, planImport, type RowStep } from './import-plan.js';
import { importReport, type RowResult } from './import-report.js';
import { writeRows } from './import-write.js';
import type { AccountRolesDone } from '../undo-data.js';

/**
 * Accounts from CSV text (#50; the CLI's `--file` reads a file into `csv`): a dry run answers
 * per row, the question counts and names every row that grants power, new accounts get a way
 * in by reset-user-password's rules (never a password from the file or the model), the writes
 * go 100 rows at a time (`/batch/v1`), and one journal entry's undo deletes the accounts it
 * created (when they own nothing) and puts back those it updated.
 */
type Params = ImportParams & { delivery?: Delivery };

/** Rows sent per step: each step is a few batch requests, then progress is said. */
export const ROWS_PER_STEP = 100;

const count = (steps: RowStep[], outcome: RowStep['outcome']) => steps.filter((s) => s.outcome === outcome).length;

function refuseResultLinks({ secretsTo }: ToolContext, delivery: Delivery): void {
  // Links for many accounts in one answer would reach the model's side of the call: only to a person.
  if (delivery === 'link' && secretsTo === 'result')
    throw new ToolError('links_not_in_results', 'import-users hands set-password links only to a person at a terminal, never into a result. Nothing was changed.', {
      hint: 'Use delivery "email", or run it from the tool shell or chat, which show each link on the terminal.',
    });
}

export const importUsers = defineTool({
  name: 'import-users',
  toolkit: 'users',
  description: 'Create users from CSV rows (update existing ones with update_existing). Answers per row.',
  schema: () => z.strictObject({
    csv: z.string().min(1).max(5_000_000).describe('Header user_login,user_email[,display_name,first_name,last_name,role,url]; no passwords'),
    update_existing: z.boolean().optional().describe('Also update existing accounts'),
    role: text().optional().describe('For rows without one'),
    delivery: z.enum(['email', 'link']).optional().describe(DELIVERY_DESCRIPTION),
  }),
  outputSchema: bulkAccountsOutput,
  fileParam: 'csv',
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: {
    // The accounts it updates by id; those it creates by login, newer than the newest account now,
    // so an import whose answer was lost (a crash, a timeout) is still undone whole (issue #47).
    scope: async ({ client, journal }, params) => {
      const steps = await planImport(client, params, journal);
      const usernames = steps.flatMap((s) => (s.outcome === 'create' ? [s.login] : []));
      return {
        users: steps.flatMap((s) => (s.outcome === 'update' && s.id ? [s.id] : [])),
        ...(usernames.length ? { locate: { newUsers: { after: steps.newest, usernames } } } : {}),
      };
    },
    created: (result: { created_ids?: number[] }) => ({ users: result.created_ids ?? [] }),
    // Existing accounts' roles as the plugin's route saw and set them (#59), over the reads around the call.
    done: (result: { roles_done?: Record<string, AccountRolesDone> }) => (result.roles_done ? { account_roles: result.roles_done, account_roles_over_reads: true as const } : undefined),
    // Rows whose batch's answer was lost and that were not found (#59.12): WordPress may still make
    // them, so the entry stays open, and an undo finds them by login (the intent's `locate`).
    uncertain: (result: { counts?: Record<string, number> }) => (result.counts?.unknown ?? 0) > 0,
    summary: (_params, result: { counts?: Record<string, number> }) =>
      `imported users: created ${result.counts?.created ?? 0}, updated ${result.counts?.updated ?? 0}`,
  },
  async review(context, params: Params) {
    const delivery = params.delivery ?? 'email';
    const steps = await planImport(context.client, params, context.journal);
    const [create, update, skip, error, finish] = (['create', 'update', 'skip', 'error', 'finish'] as const).map((o) => count(steps, o));
    if (create || finish) {
      refuseResultLinks(context, delivery);
      await checkDelivery(context, delivery);
    }
    const parts = [`create ${create} account(s)`, `update ${update}`, `skip ${skip}`, `${error} row(s) with errors (not imported)`];
    // Accounts an unfinished import made and never let in (#59.10): they get it now.
    if (finish) parts.push(`give ${finish} account(s) an unfinished import made their way in`);
    const access = create || finish ? `; ${create ? 'new accounts' : 'they'} get ${accessWords(delivery)}, which cannot be taken back` : '';
    const power = steps.filter((s) => s.gains.length).map((s) => ({ username: `${s.login} (line ${s.line}, ${s.role})`, gains: s.gains }));
    const summary = `import ${steps.length} CSV row(s): ${parts.join(', ')}${access}${gainersLine(power)}`;
    return create || update || finish ? required(summary) : none(summary);
  },
  async preview({ client, journal }, params: Params) {
    const steps = await planImport(client, params, journal);
    return { would: `import ${steps.length} row(s)`, ...importReport(steps.map((s) => ({ ...s, result: s.outcome })), 'would') };
  },
  async execute(context, params: Params) {
    const { client } = context;
    const delivery = params.delivery ?? 'email';
    const steps = await planImport(client, params, context.journal);
    const results: RowResult[] = steps.map((s) => ({ ...s, result: s.outcome === 'error' ? 'error' : 'skip' }));
    const todo = results.filter((r) => r.outcome === 'create' || r.outcome === 'update' || r.outcome === 'finish');
    if (todo.some((r) => r.outcome === 'create' || r.outcome === 'finish' || r.finish)) {
      refuseResultLinks(context, delivery);
      await checkDelivery(context, delivery);
    }
    let done = 0;
    let stopped: string | undefined;
    // What the plugin's conditional route did to existing accounts' roles (for the journal).
    const rolesDone: Record<string, AccountRolesDone> = {};
    for (const part of chunk(todo, ROWS_PER_STEP)) {
      if (stopped || context.signal?.aborted) {
        stopped ??= 'stopped before this row was sent (the call was cancelled)';
        for (const row of part) Object.assign(row, { result: 'not_run', reason: stopped });
        continue;
      }
      try {
        await writeRows(context, part, delivery, steps.newest, rolesDone);
      } catch (err) {
        // An error that is not a row's own (the site went away): the rest are not sent.
        stopped = `not sent: ${err instanceof Error ? err.message : String(err)}`;
        for (const row of part) if (row.result === 'skip') Object.assign(row, { result: 'failed', reason: `${stopped} (outcome unknown)` });
      }
      done += part.length;
      context.progress?.(done, todo.length);
    }
    const created_ids = results.flatMap((r) => (r.result === 'created' && r.id ? [r.id] : []));
    return { ...importReport(results, 'done'), created_ids, ...(Object.keys(rolesDone).length ? { roles_done: rolesDone } : {}) };
  },
  answer: (result: { created_ids?: number[]; roles_done?: unknown } & Record<string, unknown>) => {
    const { created_ids: _ids, roles_done: _roles, ...rest } = result;
    return rest;
  },
});
