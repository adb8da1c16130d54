import { createContext } from '../../src/config.js';
import type { ToolContext } from '../../src/call/index.js';
import { recordSecret } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';
import { wpPhp } from '../wordpress/users/helpers.js';

/**
 * The privilege property's world (#58): the accounts a sequence plays with, WordPress's state read
 * back with PHP (never through the tools), and the three invariants, written here from WordPress's
 * own rules, not from the toolkit's or the plugin's code: what an account holds is its `allcaps`
 * (roles merged in order, then its own entries: WP_User::get_role_caps()), where a key that is one
 * of its role slugs counts unless it is a capability's name; level_0 … level_2 are left out.
 */

/** Capabilities the sequences grant, deny, and name roles after. */
export const POWER = ['manage_options', 'promote_users', 'edit_users', 'create_users', 'delete_users', 'list_users', 'activate_plugins', 'install_plugins', 'edit_plugins', 'edit_theme_options', 'unfiltered_html', 'level_10', 'level_7'];
export const CONTENT = ['read', 'edit_posts', 'edit_others_posts', 'publish_posts', 'upload_files', 'moderate_comments', 'manage_categories'];
export const POOL = [...POWER, ...CONTENT];
/** What a caller may hold besides its role: user managing and role editing (promote_users). */
export const MANAGING = ['list_users', 'promote_users', 'edit_users', 'create_users', 'delete_users', 'remove_users'];

export interface Account {
  id: number;
  login: string;
  email: string;
  /** A digest of the password hash: a changed password shows, the hash does not. */
  pass: string;
  roles: string[];
  all: Record<string, boolean>;
  disabled: boolean;
}

export interface SiteState {
  accounts: Map<number, Account>;
  roles: Record<string, Record<string, boolean>>;
}

export async function readState(): Promise<SiteState> {
  const out = JSON.parse(
    await wpPhp(`$users = [];
      foreach (get_users(['number' => -1]) as $u) {
        $users[] = ['id' => $u->ID, 'login' => $u->user_login, 'email' => $u->user_email, 'pass' => md5($u->user_pass), 'roles' => array_values($u->roles),
          'all' => (object) $u->allcaps, 'disabled' => (bool) get_user_meta($u->ID, '_cms_admin_disabled', true)];
      }
      $roles = [];
      foreach (wp_roles()->roles as $slug => $role) { $roles[$slug] = (object) $role['capabilities']; }
      echo json_encode(['users' => $users, 'roles' => (object) $roles]);`),
  ) as { users: Account[]; roles: SiteState['roles'] };
  return { accounts: new Map(out.users.map((a) => [a.id, a])), roles: out.roles };
}

/** Names that are capabilities: every key of a role's map at the start, and the pool's. */
export function capabilityNames(start: SiteState): Set<string> {
  return new Set([...POOL, ...Object.values(start.roles).flatMap((caps) => Object.keys(caps))]);
}

/** What an account holds, by WordPress's merge: its role-slug keys only when a capability's name. */
export function holds(account: Account, names: Set<string>): Set<string> {
  return new Set(
    Object.keys(account.all).filter((cap) => account.all[cap] && !/^level_[012]$/.test(cap) && (!account.roles.includes(cap) || names.has(cap))),
  );
}

export interface Caller {
  id: number;
  login: string;
  base: string;
  grants: string[];
  context: ToolContext;
  appPassword: string;
}

export interface World {
  caller: Caller;
  /** The accounts the sequence aims at: the caller, two administrators (one also an author), an editor, an author, a subscriber, an accomplice. */
  targets: number[];
  prefix: string;
}

async function account(login: string, roles: string[]): Promise<number> {
  const password = `Pw-${login}-${Math.random().toString(36).slice(2)}`;
  recordSecret(password);
  const made = await wp().post<{ id: number }>('/wp/v2/users', { username: login, email: `${login}@example.org`, password, roles });
  return made.id;
}

/** A fresh caller (its own application password) and the accounts it plays with. */
export async function makeWorld(prefix: string, base: string, grants: string[]): Promise<World> {
  const id = await account(`${prefix}_caller`, [base]);
  if (grants.length) await wpPhp(`$u = get_userdata(${id}); foreach (${JSON.stringify(grants)} as $c) { $u->add_cap($c); }`);
  const { password: appPassword } = await wp().post<{ password: string }>(`/wp/v2/users/${id}/application-passwords`, { name: 'privilege property' });
  recordSecret(appPassword);
  const context = createContext({ url: testSite().url, username: `${prefix}_caller`, appPassword });
  const others = [
    await account(`${prefix}_admin2`, ['administrator', 'author']),
    await account(`${prefix}_admin3`, ['administrator']),
    await account(`${prefix}_editor`, ['editor']),
    await account(`${prefix}_author`, ['author']),
    await account(`${prefix}_sub`, ['subscriber']),
    await account(`${prefix}_accomplice`, ['subscriber']),
  ];
  return { caller: { id, login: `${prefix}_caller`, base, grants, context, appPassword }, targets: [id, ...others], prefix };
}

/** Whether an approved question named `cap` (a level within a "level_A to level_B" range too). */
export function named(questions: readonly string[], cap: string): boolean {
  const word = new RegExp(`\\b${cap}\\b`);
  const level = /^level_(\d+)$/.exec(cap);
  return questions.some((q) => {
    if (word.test(q)) return true;
    if (!level) return false;
    return [...q.matchAll(/level_(\d+) to level_(\d+)/g)].some((m) => Number(m[1]) <= Number(level[1]) && Number(level[1]) <= Number(m[2]));
  });
}

/**
 * The property after a step: no account holds a capability the caller lacked before the sequence
 * unless an approved question named it; no account stronger than the caller lost anything (a
 * capability, its email, its password, its access, itself); an enabled account still holds manage_options.
 */
export function violations(start: SiteState, now: SiteState, callerId: number, approved: readonly string[]): string[] {
  const names = capabilityNames(start);
  const callerStart = holds(start.accounts.get(callerId) as Account, names);
  const out: string[] = [];
  for (const account of now.accounts.values()) {
    const before = start.accounts.get(account.id);
    const had = before ? holds(before, names) : new Set<string>();
    const gained = [...holds(account, names)].filter((cap) => !had.has(cap) && !callerStart.has(cap) && !named(approved, cap));
    if (gained.length) out.push(`${account.login} gained ${gained.join(', ')}, which the caller lacked, unasked`);
  }
  for (const before of start.accounts.values()) {
    const had = holds(before, names);
    if (![...had].some((cap) => !callerStart.has(cap))) continue; // not stronger than the caller
    const after = now.accounts.get(before.id);
    if (!after) {
      out.push(`${before.login}, stronger than the caller, was deleted`);
      continue;
    }
    const lost = [...had].filter((cap) => !holds(after, names).has(cap));
    if (lost.length) out.push(`${before.login}, stronger than the caller, lost ${lost.join(', ')}`);
    if (after.email !== before.email) out.push(`${before.login}, stronger than the caller, got the email ${after.email}`);
    if (after.pass !== before.pass) out.push(`${before.login}, stronger than the caller, got a new password`);
    if (after.disabled && !before.disabled) out.push(`${before.login}, stronger than the caller, was disabled`);
  }
  const managers = [...now.accounts.values()].filter((a) => !a.disabled && holds(a, names).has('manage_options'));
  if (!managers.length) out.push('no enabled account holds manage_options');
  return out;
}
