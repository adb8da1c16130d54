import type { BatchItemResult } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import type { ToolContext } from '../define-tool.js';
import type { AccountRolesDone } from '../undo-data.js';
import { accessFailed, accessGiven, accessRequest, type Delivery, unknownPassword } from './account-access.js';
import type { RowResult } from './import-report.js';
import { findCreated } from './import-lookup.js';
import { writeImportRoles } from './import-roles.js';
import { sendMany } from './user-writes.js';
import { explainGuardError } from './write-errors.js';

/**
 * One step of import-users' write (#50): the rows' creates and updates through `/batch/v1`, then
 * a way in for every account made (and every one an unfinished import made and never let in,
 * #59.10). A batch whose answer was lost (#59.12: a slow site past the client's timeout) is not
 * reported failed: its rows are looked up first — an account found is `created` and gets its
 * email like the others; one not found is `unknown` (WordPress may still make it; the journal
 * entry stays open so an undo or a re-run finds it).
 */
export async function writeRows(
  context: ToolContext,
  rows: RowResult[],
  delivery: Delivery,
  newest: number,
  rolesDone: Record<string, AccountRolesDone>,
): Promise<void> {
  const { client } = context;
  // Role changes of existing accounts go through the plugin's conditional route when it has one.
  const conditional = await hasCompanion(client, 'users/bulk-roles');
  const bodyOf = (row: RowResult) => {
    const { roles: _roles, ...rest } = row.body ?? {};
    return conditional && row.was ? rest : (row.body ?? {});
  };
  const updates = rows.filter((r) => r.outcome === 'update');
  // An update of the role alone needs no batch item: the route writes it below.
  for (const row of updates) if (!Object.keys(bodyOf(row)).length) Object.assign(row, { result: 'skip' });
  const sending = rows.filter((r) => r.outcome === 'create' || (r.outcome === 'update' && Object.keys(bodyOf(r)).length));
  const requests = sending.map((row) =>
    row.outcome === 'create'
      ? // WordPress's REST create needs a password: one no one knows (account-access.ts), never kept.
        { path: '/wp/v2/users?_fields=id,username', body: { ...row.body, password: unknownPassword() } }
      : { path: `/wp/v2/users/${row.id}?_fields=id,username`, body: bodyOf(row) },
  );
  const answers = await sendMany(client, requests);
  const welcome: Array<{ row: RowResult; user: { id: number; username: string } }> = [];
  const lost: RowResult[] = [];
  for (const [i, answer] of answers.entries()) {
    const row = sending[i] as RowResult;
    if (!answer.ok && answer.unknown) lost.push(row);
    else if (!answer.ok) fail(row, answer);
    else if (row.outcome === 'update') Object.assign(row, { result: 'updated' });
    else {
      const user = answer.body as { id: number; username: string };
      Object.assign(row, { result: 'created', id: user.id });
      welcome.push({ row, user });
    }
  }
  if (lost.length) welcome.push(...(await lookUp(context, lost, newest)));
  if (conditional) await writeImportRoles(client, updates, rolesDone);
  // Updated accounts an unfinished import made and never let in (#59.10) get their way in too.
  for (const row of updates)
    if (row.finish && row.id && ['updated', 'skip', 'skipped'].includes(row.result)) welcome.push({ row, user: { id: row.id, username: row.login } });
  for (const row of rows.filter((r) => r.outcome === 'finish' && r.id)) {
    Object.assign(row, { result: 'finished' });
    welcome.push({ row, user: { id: row.id as number, username: row.login } });
  }
  const access = await sendMany(client, welcome.map(({ user }) => accessRequest(user.id, delivery)));
  for (const [i, given] of access.entries()) {
    const { row, user } = welcome[i] as (typeof welcome)[number];
    row.access = given.ok
      ? await accessGiven(context, user, delivery, given.body as never).catch((err) => accessFailed(delivery, err))
      : accessFailed(delivery, given.error);
  }
}

function fail(row: RowResult, answer: Extract<BatchItemResult, { ok: false }>): void {
  const err = explainGuardError(answer.error);
  Object.assign(row, { result: 'failed', reason: err instanceof Error ? err.message : String(err) });
}

/** Rows whose batch's answer was lost: created accounts found by login, updates read back. */
async function lookUp(context: ToolContext, lost: RowResult[], newest: number) {
  const { client } = context;
  const creates = lost.filter((r) => r.outcome === 'create');
  const found = creates.length ? await findCreated(client, creates.map((r) => r.login), newest) : new Map();
  const made: Array<{ row: RowResult; user: { id: number; username: string } }> = [];
  for (const row of creates) {
    const user = found.get(row.login.toLowerCase());
    if (user) {
      Object.assign(row, { result: 'created', id: user.id, reason: 'its batch’s answer was lost; found by its login' });
      made.push({ row, user });
    } else
      Object.assign(row, {
        result: 'unknown',
        reason: 'its batch’s answer was lost and the account was not found yet: WordPress may still create it (no email was sent). Run the same import again later: it finishes what this one made; or undo this change',
      });
  }
  const updates = lost.filter((r) => r.outcome === 'update' && r.id);
  const now = new Map<number, Record<string, unknown>>();
  for (let i = 0; i < updates.length; i += 100) {
    const page = await client.get<Array<Record<string, unknown>>>('/wp/v2/users', {
      include: updates.slice(i, i + 100).map((r) => r.id as number),
      per_page: 100,
      context: 'edit',
      _fields: 'id,name,first_name,last_name,url,roles',
    });
    for (const u of page) now.set(Number(u.id), u);
  }
  for (const row of updates) {
    const user = now.get(row.id as number);
    const landed = user && Object.entries(row.body ?? {}).every(([k, v]) => JSON.stringify(k === 'roles' ? [...(user.roles as string[])].sort() : user[k]) === JSON.stringify(k === 'roles' ? [...(v as string[])].sort() : v));
    Object.assign(row, landed
      ? { result: 'updated', reason: 'its batch’s answer was lost; read back' }
      : { result: 'unknown', reason: 'its batch’s answer was lost and the change was not there when read back: WordPress may still apply it' });
  }
  return made;
}
