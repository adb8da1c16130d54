import type { WordPressClient } from '../client/index.js';
import { putRole, putUserCaps, readRole, readUserCaps, removeRole } from '../tools/users/role-routes.js';
import { message, type RestoreOptions, type RestoreOutcome, type RoleState, type UndoState, writeFailed } from './types.js';

/**
 * Roles and accounts' own capabilities back as they were (companion plugin 0.6.0): a deleted
 * role comes back with its name and capabilities before its accounts get it again (restoreUsers
 * puts back each account's roles), a created one goes after they lost it. The plugin's rules
 * hold for an undo too (nobody grants what they lack, the last administrator).
 */
export async function readRoles(client: WordPressClient, slugs: readonly string[]): Promise<Record<string, RoleState | null>> {
  const out: Record<string, RoleState | null> = {};
  for (const slug of new Set(slugs)) {
    const role = await readRole(client, slug);
    out[slug] = role ? { name: role.name, capabilities: sortedCaps(role.capabilities) } : null;
  }
  return out;
}

export async function readUserCapsState(client: WordPressClient, ids: readonly number[]) {
  const out: Record<string, Record<string, boolean> | null> = {};
  for (const id of new Set(ids)) out[String(id)] = sortedCaps((await readUserCaps(client, id))?.capabilities ?? null);
  return out;
}

function sortedCaps<T extends Record<string, boolean> | null>(caps: T): T {
  return (caps && Object.fromEntries(Object.entries(caps).sort(([a], [b]) => a.localeCompare(b)))) as T;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** `phase` 'put': roles recreated or changed back (before users); 'delete': roles the change created (after users). */
export async function restoreRoles(
  client: WordPressClient,
  phase: 'put' | 'delete',
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  for (const [slug, want] of Object.entries(target.roles ?? {})) {
    if ((phase === 'delete') !== (want === null)) continue;
    const now = out.current.roles?.[slug] ?? null;
    const then = expected.roles?.[slug] ?? null;
    const item = `role ${slug}`;
    if (same(now, want)) {
      out.skipped.push(item);
      continue;
    }
    if (!options.force && !same(now, then)) {
      out.conflicts.push({ item, reason: now ? 'changed since' : 'deleted since' });
      continue;
    }
    const roles = { ...(out.result.roles ?? {}) };
    if (options.dryRun) {
      out.result.roles = { ...roles, [slug]: want };
      out.restored.push(`${item} (${want ? (now ? 'changed back' : 'created again') : 'deleted'})`);
      continue;
    }
    try {
      if (want) await putRole(client, slug, want);
      else await removeRole(client, slug);
      out.result.roles = { ...roles, [slug]: want };
      out.restored.push(`${item} (${want ? (now ? 'changed back' : 'created again') : 'deleted'})`);
    } catch (err) {
      // A role that accounts have since been given is not deleted under them: a person decides.
      if ((err as { code?: string }).code === 'role_has_users') out.conflicts.push({ item, reason: message(err) });
      else writeFailed(out, item, `could not be put back: ${message(err)}`);
    }
  }
}

export async function restoreUserCaps(
  client: WordPressClient,
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  for (const [key, want] of Object.entries(target.user_caps ?? {})) {
    const now = out.current.user_caps?.[key] ?? null;
    const then = expected.user_caps?.[key] ?? null;
    const item = `user ${key} capabilities`;
    if (same(now, want)) out.skipped.push(item);
    else if (!now || !want) out.conflicts.push({ item, reason: 'account deleted' });
    else if (!options.force && !same(now, then)) out.conflicts.push({ item, reason: 'changed since' });
    else if (options.dryRun) {
      out.result.user_caps = { ...out.result.user_caps, [key]: want };
      out.restored.push(item);
    } else {
      try {
        await putUserCaps(client, Number(key), want);
        out.result.user_caps = { ...out.result.user_caps, [key]: want };
        out.restored.push(item);
      } catch (err) {
        writeFailed(out, item, `could not be put back: ${message(err)}`);
      }
    }
  }
}
