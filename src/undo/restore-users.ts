import type { WordPressClient } from '../client/index.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../tools/companion.js';
import { loadUserContent } from '../tools/users/user-content.js';
import { message, type RestoreOptions, type RestoreOutcome, put } from './types.js';
import { sameList, sameUser, type UndoState, type UserState } from './state.js';

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
  for (const [key, want] of Object.entries(target.users ?? {})) {
    const id = Number(key);
    const now = out.current.users?.[key] ?? null;
    const item = `user ${id}${(want ?? now) ? ` (${(want ?? now)?.username})` : ''}`;
    if (sameUser(now, want)) out.skipped.push(item);
    else if (!options.force && !sameUser(now, expected.users?.[key]))
      out.conflicts.push({
        item,
        reason: now ? `changed since (${differences(now, expected.users?.[key])})` : 'deleted since',
      });
    else if (!now) out.conflicts.push({ item, reason: 'was deleted; a deleted account cannot be recreated' });
    else if (!want) await deleteUser(client, id, item, options, out);
    else await updateUser(client, id, item, now, want, options, out);
  }
}

function differences(now: UserState, then: UserState | null | undefined): string {
  if (!then) return 'it exists';
  const fields = (['email', 'name', 'bio'] as const).filter((f) => now[f] !== then[f]);
  if (!sameList(now.roles, then.roles)) fields.push('roles' as never);
  if (now.disabled !== null && then.disabled !== null && now.disabled !== then.disabled)
    fields.push('disabled' as never);
  return `${fields.join(', ')} differ`;
}

async function updateUser(
  client: WordPressClient,
  id: number,
  item: string,
  now: UserState,
  want: UserState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const body: Record<string, unknown> = {};
  if (now.email !== want.email) body.email = want.email;
  if (now.name !== want.name) body.name = want.name;
  if (now.bio !== want.bio) body.description = want.bio;
  if (!sameList(now.roles, want.roles)) body.roles = want.roles;
  const toggle = want.disabled !== null && now.disabled !== null && now.disabled !== want.disabled;
  if (options.dryRun) {
    const fields = [
      ...Object.keys(body).map((k) => (k === 'description' ? 'bio' : k)),
      ...(toggle ? ['disabled'] : []),
    ];
    return void out.restored.push(`${item} (${fields.join(', ')})`);
  }
  try {
    // Enable before other changes, disable after: an account is never left open by a failure midway.
    if (toggle && !want.disabled) await client.post(`/${COMPANION_NAMESPACE}/users/${id}/enable`);
    if (Object.keys(body).length) await client.post(`/wp/v2/users/${id}`, body, { context: 'edit', _fields: 'id' });
    if (toggle && want.disabled) await client.post(`/${COMPANION_NAMESPACE}/users/${id}/disable`, { reason: 'undo' });
    put(out.result, 'users', id, want);
    out.restored.push(item);
  } catch (err) {
    out.conflicts.push({ item, reason: `could not be changed back: ${message(err)}` });
  }
}

async function deleteUser(
  client: WordPressClient,
  id: number,
  item: string,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const owned = await postsOf(client, id);
  if (owned && !options.force)
    return void out.conflicts.push({
      item,
      reason: `has ${owned} post(s) now; force deletes it and gives them to you`,
    });
  if (options.dryRun) return void out.restored.push(`${item} (deleted)`);
  const me = await client.connect();
  try {
    await client.delete(`/wp/v2/users/${id}`, { force: true, reassign: me.id });
    put(out.result, 'users', id, null);
    out.restored.push(`${item} (deleted)`);
  } catch (err) {
    out.conflicts.push({ item, reason: `could not be deleted: ${message(err)}` });
  }
}

/** Items of every type and status the user authored (the companion plugin counts them all). */
async function postsOf(client: WordPressClient, id: number): Promise<number> {
  if (await hasCompanion(client, 'users/delete').catch(() => false)) {
    const content = await loadUserContent(client, id);
    return content.types.reduce((n, t) => n + t.total, 0) + content.links;
  }
  return client.count('/wp/v2/posts', {
    author: id,
    status: ['publish', 'future', 'draft', 'pending', 'private'],
    context: 'edit',
  });
}
