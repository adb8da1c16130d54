import { WordPressClient } from '../client/index.js';
import { NETWORK } from '../tools/users/network.js';
import { type SiteProfile, checkName } from './store.js';

/**
 * A multisite network as a group of profiles (issue #39, docs/fleets.md): `sites add NAME` on a
 * network reads its sites from the companion plugin and saves one profile per site, `NAME/slug`
 * (the main site `NAME/main`), each on that site's own REST root, all in the group `@NAME`.
 */
export interface NetworkSite {
  id: number;
  /** The site's path under the network's ('' for the main site and on subdomain networks). */
  slug: string;
  url: string;
}

export interface NetworkPlan {
  profiles: SiteProfile[];
  /** Sites not saved, with why (another origin than the one given). */
  skipped: Array<{ site: NetworkSite; name: string; reason: string }>;
}

/**
 * The network's sites (not archived, not deleted), from the plugin's network listing: one page of
 * one user is enough, every answer names all the sites. Super admins only: a site administrator
 * gets `cms_admin_not_super_admin`, which the caller says.
 */
export async function networkSites(profile: Pick<SiteProfile, 'url' | 'username' | 'appPassword'>, timeoutMs = 15_000): Promise<NetworkSite[]> {
  const client = new WordPressClient({ ...profile, timeoutMs });
  const answer = await client.get<{ sites?: NetworkSite[] }>(`${NETWORK}/users`, { per_page: 1 });
  return (answer.sites ?? []).filter((s) => typeof s.id === 'number' && typeof s.url === 'string');
}

/**
 * The profiles for a network named `name`. The main site is `NAME/main` (as the network tools
 * name it: `site: "main"`), a subdirectory site `NAME/<path>`, a subdomain site `NAME/<first label>`;
 * a name taken twice or unusable falls back to `NAME/<id>`. The password goes only to the
 * origin the person gave (`--url`): sites at another origin (subdomains, mapped domains) are
 * skipped, each said, to be added one by one if the person means to send it there.
 */
export function planNetwork(
  name: string,
  base: Pick<SiteProfile, 'url' | 'username' | 'appPassword' | 'groups'>,
  sites: readonly NetworkSite[],
): NetworkPlan {
  const origin = new URL(base.url).origin;
  const unnamed = sites.filter((s) => !s.slug).map((s) => s.id);
  const mainId = unnamed.length ? Math.min(...unnamed) : undefined;
  const groups = [name, ...base.groups.filter((g) => g !== name)];
  const taken = new Set<string>();
  const plan: NetworkPlan = { profiles: [], skipped: [] };
  for (const site of [...sites].sort((a, b) => a.id - b.id)) {
    const host = new URL(site.url).hostname.split('.')[0] ?? '';
    let own = `${name}/${site.slug || (site.id === mainId ? 'main' : host)}`;
    if (taken.has(own) || !usable(own)) own = `${name}/${site.id}`;
    taken.add(own);
    if (new URL(site.url).origin !== origin) {
      plan.skipped.push({
        site,
        name: own,
        reason: `at ${new URL(site.url).origin}, another origin than ${origin}: the password is sent only where you said`,
      });
      continue;
    }
    plan.profiles.push({ name: own, url: site.url, username: base.username, appPassword: base.appPassword, groups, network: name });
  }
  return plan;
}

function usable(name: string): boolean {
  try {
    checkName(name);
    return true;
  } catch {
    return false;
  }
}

