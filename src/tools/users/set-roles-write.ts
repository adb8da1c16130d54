import type { WordPressClient } from '../../client/index.js';
import type { AccountRolesDone } from '../undo-data.js';
import type { AccountStep } from './role-plan.js';
import type { ReportStep } from './account-report.js';
import { type BulkAnswer, changeRoles } from './account-bulk.js';
import { explainGuardError } from './write-errors.js';
import { sendMany } from './user-writes.js';

/**
 * set-users-role's write, after its plan: each account to change gets `role`.
 *
 * With the companion plugin (0.7.0) through its bulk route, each account only if it still has the
 * roles the plan read (#59.9): one another administrator changed meanwhile is `skipped` and named,
 * with what it has now, and only what the route did is journalled (`roles_done`).
 */
export async function writeRolesBulk(client: WordPressClient, role: string, steps: readonly AccountStep[]) {
  // Those that had it already go too: the answer says what each has at the moment of the write.
  const sent = steps.filter((s) => s.outcome === 'change' || s.outcome === 'skip');
  const answers = await changeRoles(client, sent.map((s) => ({ id: s.id, roles: [role], expect_roles: s.roles })));
  const byId = new Map(answers.map((a) => [a.id, a]));
  const roles_done: Record<string, AccountRolesDone> = {};
  const done = steps.map((step): ReportStep => {
    const answer = byId.get(step.id);
    if (!answer) return step;
    // Done, or maybe done (its answer lost): the journal keeps it, and an undo reads it first.
    if (answer.result === 'done' || answer.result === 'unknown')
      roles_done[step.id] = { before: answer.before ?? step.roles, after: answer.after ?? [role] };
    return { ...step, ...outcomeOf(answer, role) };
  });
  return { done, roles_done };
}

function outcomeOf(answer: BulkAnswer, role: string): Pick<ReportStep, 'outcome' | 'reason'> {
  switch (answer.result) {
    case 'done':
      return { outcome: 'change', ...(answer.reason ? { reason: answer.reason } : {}) };
    case 'unchanged':
      return { outcome: 'skip', reason: `already ${role}` };
    case 'skipped':
      return { outcome: 'skipped', reason: answer.reason ?? 'changed since it was read' };
    case 'gone':
      return { outcome: 'skipped', reason: 'deleted since it was read' };
    case 'refused':
      return { outcome: 'refused', reason: answer.reason ?? answer.code ?? 'refused' };
    default:
      return { outcome: 'failed', reason: answer.reason ?? 'outcome unknown' };
  }
}

/** Without the plugin's route: `/batch/v1` (one by one on WordPress 6.1), each write as planned. */
export async function writeRolesOneByOne(client: WordPressClient, role: string, steps: readonly AccountStep[]): Promise<ReportStep[]> {
  const changing = steps.filter((s) => s.outcome === 'change');
  const results = await sendMany(client, changing.map((s) => ({ path: `/wp/v2/users/${s.id}`, body: { roles: [role] } })));
  const byId = new Map(changing.map((s, i) => [s.id, results[i]]));
  return steps.map((step): ReportStep => {
    const result = byId.get(step.id);
    if (!result || result.ok) return step;
    const err = explainGuardError(result.error);
    return { ...step, outcome: 'failed', reason: err instanceof Error ? err.message : String(err) };
  });
}
