import type { WordPressClient } from '../client/index.js';
import { changeRoles, deleteAccounts, type BulkAnswer } from '../tools/users/account-bulk.js';
import { put, type RestoreOptions, type RestoreOutcome, type UserState, writeFailed } from './types.js';

/**
 * An undo's account writes through the companion plugin's bulk routes (0.7.0, #59, #61): many
 * accounts a request, each written only if it is still as the undo read it, so a change another
 * administrator makes between the undo's read and its write stays (a conflict, named).
 */
export interface RoleRestore {
  id: number;
  item: string;
  now: UserState;
  roles: string[];
}

export interface Deletion {
  id: number;
  item: string;
  /** As the change left it (the entry's `after`): what the account must still be. */
  then?: UserState | null;
}

/** Roles back (an undo of set-users-role, import-users' role updates, set-user-role…). */
export async function restoreRolesBulk(client: WordPressClient, list: readonly RoleRestore[], out: RestoreOutcome): Promise<void> {
  if (!list.length) return;
  const answers = await changeRoles(client, list.map((r) => ({ id: r.id, roles: r.roles, expect_roles: r.now.roles })));
  const byId = new Map(answers.map((a) => [a.id, a]));
  for (const r of list) {
    const a = byId.get(r.id) as BulkAnswer;
    if (a.result === 'done') {
      put(out.result, 'users', r.id, { ...r.now, roles: [...(a.after ?? r.roles)].sort() });
      out.restored.push(r.item);
    } else if (a.result === 'unchanged') out.skipped.push(r.item);
    else if (a.result === 'skipped') out.conflicts.push({ item: r.item, reason: `changed since (roles: ${a.reason ?? 'changed'})` });
    else if (a.result === 'gone') out.conflicts.push({ item: r.item, reason: 'deleted since' });
    else writeFailed(out, r.item, `could not be changed back: ${a.reason ?? a.code ?? a.result}`);
  }
}

/**
 * Deletes the accounts a change created, each only if it is still as the change left it and owns
 * nothing (#59.8: posts of any type, links, comments, its own capabilities, application
 * passwords, roles and email): one that has any of these is kept and named, unless `force`
 * (its posts and links go to `heir`, its comments keep their author's name but no longer point
 * at the deleted account). A dry run asks the same route to judge without deleting.
 */
export async function deleteUsersBulk(
  client: WordPressClient,
  list: readonly Deletion[],
  options: RestoreOptions,
  heir: number,
  out: RestoreOutcome,
): Promise<void> {
  if (!list.length) return;
  const items = list.map((d) => ({ id: d.id, ...(d.then ? { expect: { roles: d.then.roles, email: d.then.email } } : {}) }));
  const answers = await deleteAccounts(client, items, { force: options.force === true, reassign: options.force ? heir : 0, dry_run: options.dryRun === true });
  const byId = new Map(answers.map((a) => [a.id, a]));
  for (const d of list) {
    const a = byId.get(d.id) as BulkAnswer;
    if (a.result === 'deleted' || a.result === 'would_delete') {
      put(out.result, 'users', d.id, null);
      out.restored.push(`${d.item} (deleted)`);
    } else if (a.result === 'gone') out.skipped.push(d.item);
    else if (a.result === 'skipped')
      out.conflicts.push({ item: d.item, reason: `changed since: ${(a.changes ?? [a.reason]).join('; ')}; force deletes it and gives its posts to you` });
    else writeFailed(out, d.item, `could not be deleted: ${a.reason ?? a.code ?? a.result}`);
  }
}
