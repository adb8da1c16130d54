import { mapLimit, type WordPressClient } from '../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../tools/companion.js';
import { ownedSince } from './owned-since.js';
import { message, type RestoreOptions, type RestoreOutcome, put, writeFailed } from './types.js';
import { sameList, sameUser, type UndoState, type UserState } from './state.js';
import { type Deletion, deleteUsersBulk, type RoleRestore, restoreRolesBulk } from './restore-users-bulk.js';

/**
 * Users back as they were: email, display name, bio, roles, disabled state. A user the change
 * created is deleted (its posts, if it has any now, only with force: they go to the account
 * the toolkit signs in as). A deleted user cannot be brought back (delete-user is not reversible).
 */
export async function restoreUsers(
  client: WordPressClient,
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  // Accounts the change created are deleted a few at once (an import's thousands), reported in order.
  const deletions: Deletion[] = [];
  // With the plugin's bulk routes (0.7.0), role changes and deletions go many a request, each
  // only if the account is still as read here (restore-users-bulk.ts).
  const bulk = await hasCompanion(client, 'users/bulk-roles').catch(() => false);
  const roleRestores: RoleRestore[] | undefined = bulk && !options.dryRun ? [] : undefined;
  for (const [key, want] of Object.entries(target.users ?? {})) {
    const id = Number(key);
    const now = out.current.users?.[key] ?? null;
    const then = expected.users?.[key];
    const item = `user ${id}${(want ?? now) ? ` (${(want ?? now)?.username})` : ''}`;
    if (want && then) await updateUser(client, id, item, now, then, want, options, out, roleRestores);
    else if (sameUser(now, want)) out.skipped.push(item);
    else if (!options.force && !sameUser(now, then))
      out.conflicts.push({ item, reason: now ? 'changed since' : 'deleted since' });
    else if (!now) out.conflicts.push({ item, reason: 'was deleted; a deleted account cannot be recreated' });
    else if (!want) deletions.push({ id, item, then });
    else await updateUser(client, id, item, now, undefined, want, options, out);
  }
  if (roleRestores) await restoreRolesBulk(client, roleRestores, out);
  if (bulk && deletions.length) return deleteUsersBulk(client, deletions, options, (await client.connect()).id, out);
  const done = await mapLimit(deletions, client.concurrency, ({ id, item }) => deleteUser(client, id, item, options));
  for (const apply of done) apply(out);
}

type Field = 'email' | 'name' | 'bio' | 'roles' | 'disabled' | 'first_name' | 'last_name' | 'url';
const FIELDS: Field[] = ['email', 'name', 'bio', 'roles', 'disabled', 'first_name', 'last_name', 'url'];

function same(field: Field, a: UserState, b: UserState): boolean {
  if (field === 'roles') return sameList(a.roles, b.roles);
  if (field === 'disabled') return a.disabled === null || b.disabled === null || a.disabled === b.disabled;
  // Older entries lack these (#50): unknown, left alone.
  if (a[field] === undefined || b[field] === undefined) return true;
  return a[field] === b[field];
}

/**
 * Puts back the fields the change changed (`then` → `want`); one changed again since is a
 * conflict, the user left as is (unless force). Other fields stay as they are now.
 */
async function updateUser(
  client: WordPressClient,
  id: number,
  item: string,
  now: UserState | null,
  then: UserState | undefined,
  want: UserState,
  options: RestoreOptions,
  out: RestoreOutcome,
  roleRestores?: RoleRestore[],
): Promise<void> {
  const fields = FIELDS.filter((f) => !then || !same(f, then, want));
  if (!fields.length) return;
  if (!now) return void out.conflicts.push({ item, reason: 'deleted since' });
  const todo = fields.filter((f) => !same(f, now, want));
  if (!todo.length) return void out.skipped.push(item);
  const since = then ? fields.filter((f) => !same(f, now, then)) : [];
  if (since.length && !options.force)
    return void out.conflicts.push({ item, reason: `changed since (${since.join(', ')})` });
  // Only roles to put back, and the plugin's bulk route: with the others, each only if still as read.
  if (roleRestores && todo.length === 1 && todo[0] === 'roles') return void roleRestores.push({ id, item, now, roles: want.roles });
  if (options.dryRun) {
    // The plan the undo's question is built from (tools/changes/undo-review.ts): what this would write.
    put(out.result, 'users', id, { ...now, ...Object.fromEntries(todo.map((f) => [f, want[f]])) });
    return void out.restored.push(`${item} (${todo.join(', ')})`);
  }
  const body: Record<string, unknown> = {};
  if (todo.includes('email')) body.email = want.email;
  if (todo.includes('name')) body.name = want.name;
  if (todo.includes('bio')) body.description = want.bio;
  if (todo.includes('roles')) body.roles = want.roles;
  for (const f of ['first_name', 'last_name', 'url'] as const) if (todo.includes(f)) body[f] = want[f];
  const toggle = todo.includes('disabled');
  try {
    // Disable first, enable last: a failure midway never leaves open an account that should be closed.
    if (toggle && want.disabled) await client.post(`/${COMPANION_NAMESPACE}/users/${id}/disable`, { reason: 'undo' });
    if (Object.keys(body).length) await client.post(`/wp/v2/users/${id}`, body, { context: 'edit', _fields: 'id' });
    if (toggle && !want.disabled) await client.post(`/${COMPANION_NAMESPACE}/users/${id}/enable`);
    const restored = Object.fromEntries(todo.map((f) => [f, want[f]]));
    put(out.result, 'users', id, { ...now, ...restored });
    out.restored.push(item);
  } catch (err) {
    writeFailed(out, item, `could not be changed back: ${message(err)}`);
  }
}

/** Deletes a user the change created (unless it owns something now); returns how to report it. */
async function deleteUser(
  client: WordPressClient,
  id: number,
  item: string,
  options: RestoreOptions,
): Promise<(out: RestoreOutcome) => void> {
  const owned = options.force ? [] : await ownedSince(client, id);
  if (owned.length)
    return (out) =>
      void out.conflicts.push({
        item,
        reason: `has ${owned.join(', ')} now; force deletes it and gives its posts to you`,
      });
  if (options.dryRun)
    return (out) => {
      put(out.result, 'users', id, null); // the plan (see updateUser)
      out.restored.push(`${item} (deleted)`);
    };
  const me = await client.connect();
  try {
    await client.delete(`/wp/v2/users/${id}`, { force: true, reassign: me.id });
    return (out) => {
      put(out.result, 'users', id, null);
      out.restored.push(`${item} (deleted)`);
    };
  } catch (err) {
    return (out) => writeFailed(out, item, `could not be deleted: ${message(err)}`);
  }
}
