import type { WordPressClient } from '../client/index.js';
import { ToolError } from './tool-error.js';

/** REST namespace of the companion plugin (plugin/cms-admin-companion). */
export const COMPANION_NAMESPACE = 'cms-admin/v1';

/** The REST index field where the plugin (0.2.0 on) reports its version; createContext asks for it. */
export const COMPANION_INDEX_FIELD = 'cms_admin_companion';

/**
 * The plugin version each route the toolkit uses needs. 0.2.0: post-terms takes every post
 * type the taxonomy is registered for, and trashed posts. 0.3.0: post-terms takes any taxonomy,
 * adds and removes terms as changes (a concurrent writer's terms stay) and refuses ids of
 * another taxonomy; login sessions, and the content count and guards of user deletion
 * (includes/offboarding.php). Bump a route's entry when the
 * toolkit starts relying on a newer behaviour of it.
 */
export const COMPANION_ROUTES = {
  'post-terms': '0.3.0',
  /** 0.4.0: which posts hold a term, every post type (REST-hidden ones too) and status (custom ones too). */
  'post-terms/read': '0.4.0',
  'users/disable': '0.1.0',
  'users/enable': '0.1.0',
  'users/password-reset': '0.1.0',
  /** 0.6.0: WordPress's new-user email for an account made without a password (new-user-email.php). */
  'users/welcome': '0.6.0',
  /** 0.3.2: each role also says which of its capabilities the caller may not give (WordPress's own check); older, the toolkit compares capabilities itself. */
  roles: '0.1.0',
  'users/registered-order': '0.1.0',
  /**
   * 0.3.0: WordPress itself refuses edit/promote/remove/delete of a stronger account and
   * roles above the caller's (map_meta_cap, editable_roles); enable applies the same rule;
   * the last-administrator check runs under a lock; disabled accounts get no reset. 0.3.1: a
   * new account given no role gets no default role above its creator's; the delete and
   * own-password guards hold for any case of the route. 0.4.0: those guards read the ids
   * WordPress acts on (a query or body `id`, `user_id`, `uuid` wins over the route's). 0.7.0
   * (#58): power compared as capability maps, so a role named after a capability no longer hands
   * it out, and a denial on a role no longer strips the stronger accounts holding it.
   */
  'user-guards': '0.7.0',
  'users/sessions': '0.3.0',
  /** What an account authored, every type and status (offboarding.php). */
  'users/content': '0.3.0',
  /** 0.3.1: a delete without heir of an account owning links no longer dies halfway (offboarding.php). */
  'users/delete': '0.3.1',
  /** 0.5.0: a multisite network's users, memberships and super admins (network.php). */
  network: '0.5.0',
  /** 0.7.0: accounts of the network by exact login or email, for a name where a user id goes (account-lookup.php). */
  'network/accounts': '0.7.0',
  /** 0.7.0: a WordPress ability's checks (input, permission) without running it: the dry run of run-ability (abilities-dry-run.php). */
  'abilities/dry-run': '0.7.0',
  /** 0.5.2: one site's roles on a network, for add-user-to-site's question (a role differs per site). */
  'network/site-roles': '0.5.2',
  /**
   * 0.5.3: a network delete finds the account's posts on every site (archived ones, ones it was
   * removed from: `other_sites`) and hands them all to the heir; older, they kept the deleted id.
   */
  'network/delete': '0.5.3',
  /** 0.6.0: roles created, changed and deleted, accounts' own capabilities, who holds a capability (roles-editor.php). */
  'roles/edit': '0.6.0',
  /**
   * 0.7.0 (#58): power judged from capability maps (capability-maps.php): no role slug is a
   * capability's name; a role change is judged by its effect on every holder, denials included,
   * and the role and own-capability routes take `check` (judged, not written).
   */
  'roles/judge': '0.7.0',
  /** 0.5.0: every account's application passwords in one listing (app-passwords.php). */
  'app-passwords': '0.5.0',
  /** 0.6.0 (#51): each term's objects of every type and status, children, last use (term-cleanup.php). */
  'term-usage': '0.6.0',
  /** 0.6.0: deletes terms still unused (checked again per term, from the tables). */
  'terms/prune': '0.6.0',
  /** 0.6.0: WordPress's stored counts recomputed (wp_update_term_count_now), what changed. */
  'terms/recount': '0.6.0',
  /** 0.7.0 (#61): near-duplicate groups with their counts in one request a page (term-duplicates.php). */
  'term-duplicates': '0.7.0',
  /**
   * 0.7.0 (#59, #61; term-bulk.php): bulk term writes conditional on the state they were planned
   * on, each item read again as it is written, in the client's time budget: objects migrated
   * between taxonomies, terms deleted only where nothing unplanned holds them, parents set only
   * where still as planned; and the bulk post-terms route's `budget_ms`.
   */
  'terms/migrate-objects': '0.7.0',
  'terms/delete': '0.7.0',
  'terms/parent': '0.7.0',
  'post-terms/budget': '0.7.0',
  /** 0.7.0: each account's last login, recorded from then on, and the users filter by it (last-login.php). */
  'users/last-login': '0.7.0',
  /**
   * 0.7.0 (#59, #61; account-bulk.php): roles of many accounts per request, each only if it still
   * has the roles it was planned on, answered per account, bounded by a time budget.
   */
  'users/bulk-roles': '0.7.0',
  /** 0.7.0: accounts a change made deleted many per request, each only if still as it left them. */
  'users/bulk-delete': '0.7.0',
  /** 0.7.0: `cms_access` on users: a set-password link pending (since when), a login session. */
  'users/access': '0.7.0',
} as const;
export type CompanionRoute = keyof typeof COMPANION_ROUTES;

export const INSTALL_HINT =
  'Install the cms-admin-companion plugin: `cms-admin plugin install --wp-content <wp-content dir>` on the server, or upload the zip from `cms-admin plugin zip` under Plugins → Add New → Upload Plugin, then activate it.';

const UPDATE_HINT =
  'Update the cms-admin-companion plugin: upload the zip from `cms-admin plugin zip` (Plugins → Add New → Upload Plugin replaces it), or `cms-admin plugin install --wp-content <dir>` on the server.';

export interface CompanionEntry {
  version?: unknown;
  /** A multisite network (0.5.0). */
  network?: unknown;
  /** The signed-in account is a super admin (0.5.1, on a network). */
  super_admin?: unknown;
  /** When the plugin began recording logins (0.7.0), ISO 8601; only to an account with list_users. */
  last_login_since?: unknown;
}

/**
 * The plugin's entry in the REST index, or undefined without the plugin. A context's client reads
 * it with the index (config.ts); a client made without `indexFields` is asked for it here.
 */
export async function companionEntry(client: WordPressClient): Promise<CompanionEntry | undefined> {
  const [namespaces, index] = await Promise.all([client.namespaces(), client.index()]);
  if (!namespaces.includes(COMPANION_NAMESPACE)) return undefined;
  const read =
    COMPANION_INDEX_FIELD in index || client.indexFields?.includes(COMPANION_INDEX_FIELD) !== false
      ? index
      : await client.get<Record<string, unknown>>('/', { _fields: COMPANION_INDEX_FIELD });
  return (read[COMPANION_INDEX_FIELD] ?? {}) as CompanionEntry;
}

/** The plugin's version, or undefined without the plugin. 0.1.0 did not report one. */
export async function companionVersion(client: WordPressClient): Promise<string | undefined> {
  const entry = await companionEntry(client);
  if (!entry) return undefined;
  return typeof entry.version === 'string' ? entry.version : '0.1.0';
}

/** -1, 0 or 1 as semver-like `a` is older, equal or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split(/[.-]/).map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/**
 * Whether the site's companion plugin serves `route` as the toolkit needs it. An older plugin
 * gives a warning (once) and false, so the caller falls back to the core API.
 */
export async function hasCompanion(client: WordPressClient, route: CompanionRoute = 'roles'): Promise<boolean> {
  const version = await companionVersion(client);
  if (version === undefined) return false;
  const need = COMPANION_ROUTES[route];
  if (compareVersions(version, need) >= 0) return true;
  client.warnOnce(
    `companion-${route}`,
    `Update the companion plugin (have ${version}, need ${need} for ${route}); the toolkit uses WordPress's core API instead meanwhile.`,
  );
  return false;
}

/**
 * WordPress has no disabled state, no password-reset endpoint and no roles endpoint; the
 * tools that need them say so rather than improvising (random passwords, role edits).
 */
export async function requireCompanion(client: WordPressClient, what: string, route: CompanionRoute): Promise<void> {
  const version = await companionVersion(client);
  const need = COMPANION_ROUTES[route];
  if (version !== undefined && compareVersions(version, need) >= 0) return;
  if (version !== undefined) {
    throw new ToolError(
      'companion_plugin_outdated',
      `${what} needs a newer cms-admin-companion plugin: update the companion plugin (have ${version}, need ${need}).`,
      { hint: UPDATE_HINT },
    );
  }
  throw new ToolError(
    'companion_plugin_missing',
    `${what} needs the cms-admin-companion WordPress plugin (${need} or newer), which this site does not have (no ${COMPANION_NAMESPACE} in its REST API). WordPress itself offers no way to do this over REST.`,
    { hint: INSTALL_HINT },
  );
}
