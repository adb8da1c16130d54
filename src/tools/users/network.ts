import { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE, COMPANION_ROUTES, companionEntry, companionVersion, compareVersions, requireCompanion } from '../companion.js';
import { text } from '../schema.js';
import { ToolError } from '../tool-error.js';
import type { RoleRecord } from './default-roles.js';
import { powerfulOf } from './risk.js';

/**
 * Multisite networks (docs/multisite.md): the companion plugin's network routes (0.5.0,
 * plugin/…/includes/network.php) on the network's main site, which only a super admin may use.
 */
export const NETWORK = `/${COMPANION_NAMESPACE}/network`;

/** A site of the network: its path's slug ("sports"; "main" for the main site) or its id. */
export const siteParam = () => text(64).describe('Site slug or id');

export interface Membership {
  site: string;
  site_id: number;
  roles: string[];
  posts?: number;
}

/**
 * A site not among the user's `sites` (active memberships) where it still has posts or a
 * membership: an archived site it belongs to, a site it was removed from that holds its posts
 * (plugin 0.5.3, single-user read).
 */
export interface OtherSite extends Membership {
  member: boolean;
  /** 'archived', 'spam' or 'deactivated'; null for an active site. */
  inactive: string | null;
  posts: number;
}

export interface NetworkUser {
  id: number;
  username: string;
  name: string;
  super_admin: boolean;
  sites: Membership[];
  other_sites?: OtherSite[];
  /** How many super admins the network has (single-user read). */
  super_admins?: number;
}

/** Whether the site is a multisite network, as the companion plugin (0.5.0) reports in the REST index. */
export async function isNetwork(client: WordPressClient): Promise<boolean> {
  return (await companionEntry(client))?.network === true;
}

/**
 * Whether a surface lists the network tools: the site is a network and the signed-in account a
 * super admin, whom alone WordPress lets use the network routes. The plugin reports the account
 * (`super_admin`, 0.5.1); an older one does not, and the tools are listed as before (a site
 * administrator's call then answers `cms_admin_not_super_admin`).
 */
export async function networkToolsFor(client: WordPressClient): Promise<boolean> {
  const entry = await companionEntry(client);
  return entry?.network === true && entry.super_admin !== false;
}

/** A network tool's first step: the plugin's network routes, on a network. */
export async function requireNetwork(client: WordPressClient, what: string): Promise<void> {
  await requireCompanion(client, what, 'network');
  if (!(await isNetwork(client))) {
    throw new ToolError('not_a_network', `${what} works on a multisite network; this site is a single site.`, {
      hint: 'Use set-user-role and delete-user on a single site.',
    });
  }
}

/** `otherSites`: also the sites a network delete must visit (plugin 0.5.3; it reads every site). */
export async function networkUser(client: WordPressClient, id: number, otherSites = false): Promise<NetworkUser> {
  return client.get<NetworkUser>(`${NETWORK}/users/${id}`, otherSites ? { other_sites: true } : undefined);
}

/** "bob (user 4)" for a review's words (#52.11); "user 4" when the account cannot be read. */
export async function userLabel(client: WordPressClient, id: number): Promise<string> {
  try {
    return `${(await networkUser(client, id)).username} (user ${id})`;
  } catch {
    return `user ${id}`;
  }
}

/** "sports", "main" or an id, as the plugin's routes take it. */
export const siteRef = (site: string) => encodeURIComponent(site.trim().replace(/^\/+|\/+$/g, '') || 'main');

/** The membership on `site` (slug, "main" or id), if any. */
export function membershipOn(user: NetworkUser, site: string): Membership | undefined {
  const ref = site.trim().replace(/^\/+|\/+$/g, '');
  return user.sites.find((m) => String(m.site_id) === ref || m.site === ref || (m.site === '' && (ref === 'main' || ref === '')));
}

export const siteName = (m: { site: string }) => m.site || 'main';

/** One line per site, e.g. "sports: editor, news: author". */
export const describeSites = (user: NetworkUser) =>
  user.sites.map((m) => `${siteName(m)}: ${m.roles.join(', ') || 'no role'}`).join('; ') || 'no site';

/**
 * The powerful capabilities `role` gives on `site` (what a person must approve), read from that
 * site: a role editor on one site of a network changes what "author" means there. An unknown role
 * is refused before anyone is asked; a plugin older than 0.5.2 cannot tell, so a person decides.
 */
export async function powersOfRoleOn(client: WordPressClient, site: string, role: string): Promise<string[]> {
  // Not hasCompanion(): its warning says the core API is used instead, and here a person is asked.
  const need = COMPANION_ROUTES['network/site-roles'];
  const version = await companionVersion(client);
  if (version === undefined || compareVersions(version, need) < 0)
    return [`its capabilities on site ${site}: unknown (companion plugin older than ${need})`];
  const { roles } = await client.get<{ roles: RoleRecord[] }>(`${NETWORK}/sites/${siteRef(site)}/roles`);
  const found = roles.find((r) => r.role === role);
  if (!found) {
    throw new ToolError('unknown_role', `There is no role "${role}" on site ${site}.`, {
      hint: `Use one of that site's roles: ${roles.map((r) => r.role).join(', ')}.`,
    });
  }
  return powerfulOf(found.capabilities);
}

export const networkUserOutput = z.looseObject({ id: z.number(), username: z.string() });
