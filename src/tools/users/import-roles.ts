import type { WordPressClient } from '../../client/index.js';
import type { AccountRolesDone } from '../undo-data.js';
import { changeRoles } from './account-bulk.js';
import type { RowResult } from './import-report.js';

/**
 * The role changes of an import's updates (`update_existing`) through the companion plugin's
 * conditional route (0.7.0, #59): each account gets its new role only if it still has the roles
 * the plan read, so a role another administrator gave it meanwhile stays (the row says so). The
 * other fields go through `/batch/v1` as before; the role is sent after them, for the rows whose
 * fields were written. `done` collects what the route did, for the journal (`account_roles`).
 */
export async function writeImportRoles(client: WordPressClient, rows: readonly RowResult[], done: Record<string, AccountRolesDone>): Promise<void> {
  const sending = rows.filter((r) => r.id !== undefined && r.was && r.role && (r.result === 'updated' || r.result === 'skip'));
  if (!sending.length) return;
  const answers = await changeRoles(client, sending.map((r) => ({ id: r.id as number, roles: [r.role as string], expect_roles: r.was as string[] })));
  const byId = new Map(answers.map((a) => [a.id, a]));
  for (const row of sending) {
    const a = byId.get(row.id as number);
    if (!a) continue;
    const fields = row.result === 'updated';
    const said = (why: string) => (fields ? { result: 'updated', reason: `its fields were updated; its role was not: ${why}` } : { result: 'skipped', reason: why });
    if (a.result === 'done' || a.result === 'unknown') done[String(row.id)] = { before: a.before ?? (row.was as string[]), after: a.after ?? [row.role as string] };
    // Changed by someone else: in the entry with the roles it has now, so an undo leaves them.
    if (a.result === 'skipped' && a.before) done[String(row.id)] = { before: a.before, after: a.before };
    if (a.result === 'done') Object.assign(row, { result: 'updated' });
    else if (a.result === 'unchanged') Object.assign(row, fields ? { result: 'updated' } : { result: 'skip', reason: `already ${row.role}` });
    else if (a.result === 'unknown' || a.result === 'not_sent') Object.assign(row, { result: 'unknown', reason: a.reason });
    else Object.assign(row, said(a.reason ?? a.code ?? a.result));
  }
}
