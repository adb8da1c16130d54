import { type WordPressClient, WordPressError } from '../client/index.js';
import { COMPANION_NAMESPACE } from '../tools/companion.js';
import { message, type NetworkUserState, type RestoreOptions, type RestoreOutcome, type UndoState, writeFailed } from './types.js';

/**
 * Network accounts back as they were (docs/multisite.md): super admin or not, and the sites
 * they belong to with their role there, through the companion plugin's network routes. Posts
 * a removal gave to someone else stay with them (the entry says so); a site the account must
 * leave again where it has written posts since is a conflict: who gets them is a person's call.
 */
const NETWORK = `/${COMPANION_NAMESPACE}/network`;

interface Read {
  username: string;
  super_admin: boolean;
  sites: Array<{ site_id: number; roles: string[]; posts?: number }>;
}

export async function readNetworkUsers(client: WordPressClient, ids: readonly number[]) {
  const out: Record<string, NetworkUserState | null> = {};
  for (const id of new Set(ids)) {
    try {
      const user = await client.get<Read>(`${NETWORK}/users/${id}`);
      out[String(id)] = {
        username: user.username,
        super_admin: user.super_admin,
        sites: Object.fromEntries(user.sites.map((m) => [String(m.site_id), [...m.roles].sort()])),
      };
    } catch (err) {
      if (err instanceof WordPressError && err.status === 404) out[String(id)] = null;
      else throw err;
    }
  }
  return out;
}

const same = (a: NetworkUserState | null | undefined, b: NetworkUserState | null | undefined) =>
  JSON.stringify(a ? [a.super_admin, Object.entries(a.sites).sort()] : null) ===
  JSON.stringify(b ? [b.super_admin, Object.entries(b.sites).sort()] : null);

export async function restoreNetworkUsers(
  client: WordPressClient,
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  for (const [key, want] of Object.entries(target.network_users ?? {})) {
    const now = out.current.network_users?.[key] ?? null;
    const then = expected.network_users?.[key];
    const item = `network user ${key}${(want ?? now) ? ` (${(want ?? now)?.username})` : ''}`;
    if (same(now, want)) out.skipped.push(item);
    else if (!now || !want) out.conflicts.push({ item, reason: now ? 'cannot delete an account here' : 'deleted since' });
    else if (!options.force && !same(now, then)) out.conflicts.push({ item, reason: 'changed since' });
    else await putBack(client, Number(key), item, now, want, options, out);
  }
}

async function putBack(
  client: WordPressClient,
  id: number,
  item: string,
  now: NetworkUserState,
  want: NetworkUserState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const writes: Array<[string, () => Promise<unknown>]> = [];
  // What the writes leave: the plugin's route adds an account to a site with one role.
  const leaves: NetworkUserState = { ...now, super_admin: want.super_admin, sites: { ...now.sites } };
  const notBack: string[] = [];
  if (now.super_admin !== want.super_admin) {
    const path = `${NETWORK}/super-admins/${id}`;
    writes.push([want.super_admin ? 'super admin again' : 'no longer super admin', () => (want.super_admin ? client.post(path) : client.delete(path))]);
  }
  for (const [site, roles] of Object.entries(want.sites)) {
    const has = now.sites[site];
    if (!has) {
      const [role = '', ...others] = roles;
      writes.push([`back on site ${site} as ${role || 'no role'}`, () => client.post(`${NETWORK}/sites/${site}/users`, { user: id, role })]);
      leaves.sites[site] = role ? [role] : [];
      if (others.length) notBack.push(`role ${others.join(', ')} on site ${site} (add it there with set-user-role, keep_other_roles)`);
    } else if (has.join() !== roles.join()) return void out.conflicts.push({ item, reason: `role on site ${site} changed (${has.join(', ')})` });
  }
  for (const site of Object.keys(now.sites)) {
    // The plugin refuses a removal that would leave posts without an heir: a conflict, said as such.
    if (!want.sites[site]) {
      writes.push([`off site ${site}`, () => client.delete(`${NETWORK}/sites/${site}/users/${id}`)]);
      delete leaves.sites[site];
    }
  }
  const partly = () => {
    if (notBack.length) out.conflicts.push({ item, reason: `not given back: ${notBack.join('; ')}` });
  };
  if (options.dryRun) {
    // The plan the undo's question is built from (changes/undo-review.ts): what this would leave.
    out.result.network_users = { ...out.result.network_users, [String(id)]: leaves };
    out.restored.push(`${item}: ${writes.map(([what]) => what).join('; ')}`);
    return partly();
  }
  for (const [what, write] of writes) {
    try {
      await write();
    } catch (err) {
      if (err instanceof WordPressError && err.status === 409) return void out.conflicts.push({ item, reason: `${what}: ${message(err)}` });
      return void writeFailed(out, item, `${what}: ${message(err)}`);
    }
  }
  // Read back: the entry's redo and the answer say what WordPress holds, not what was asked of it.
  const after = (await readNetworkUsers(client, [id]))[String(id)] ?? null;
  out.restored.push(`${item}: ${writes.map(([what]) => what).join('; ')}`);
  out.result.network_users = { ...out.result.network_users, [String(id)]: after };
  partly();
}
