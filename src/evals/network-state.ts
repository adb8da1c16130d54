import { WordPressClient } from '../client/index.js';
import { NETWORK } from '../tools/users/network.js';

/** As site-state.ts's SiteRecord (not imported: site-state imports this file). */
type SiteRecord = Record<string, unknown> & { id: number };

/**
 * A network case's state (target: network), read with the eval's own super admin account, never
 * from the agent's transcript: the plugin's network listing (what WordPress stores: roles per
 * site, super admins) and each site's posts through that site's own REST root.
 */
export interface NetworkCredentials {
  url: string;
  username: string;
  appPassword: string;
}

interface Listing {
  users: Array<{ id: number; username: string; name: string; super_admin: boolean; sites: Array<{ site: string; roles: string[] }> }>;
  total_pages: number;
  sites: Array<{ id: number; slug: string; url: string }>;
}

async function listing(client: WordPressClient, page: number): Promise<Listing> {
  return client.get<Listing>(`${NETWORK}/users`, { per_page: 200, page });
}

/** Accounts: `sites` lists `slug:role` ("main" for the main site), so checks can say `includes: {sites: [sports:author]}`. */
export async function readNetworkUsers(client: WordPressClient): Promise<SiteRecord[]> {
  const out: SiteRecord[] = [];
  for (let page = 1, pages = 1; page <= pages && page <= 50; page++) {
    const answer = await listing(client, page);
    pages = answer.total_pages;
    for (const u of answer.users) {
      out.push({
        id: u.id,
        username: u.username,
        name: u.name,
        super_admin: u.super_admin,
        sites: u.sites.flatMap((m) => m.roles.map((role) => `${m.site || 'main'}:${role}`)),
      });
    }
  }
  return out;
}

/** Every site's posts (any status): `{id, site, title, status, author}`; ids repeat across sites. */
export async function readNetworkPosts(client: WordPressClient, creds: NetworkCredentials | undefined): Promise<SiteRecord[]> {
  if (!creds) throw new Error('network_posts needs the network credentials (a network case)');
  const { sites } = await listing(client, 1);
  const out: SiteRecord[] = [];
  for (const site of sites) {
    const own = new WordPressClient({ ...creds, url: site.url });
    const posts = await own.all<Record<string, unknown>>('/wp/v2/posts', {
      status: 'publish,draft,pending,private,future',
      context: 'edit',
      _fields: 'id,title,status,author',
    });
    for (const raw of posts) {
      out.push({
        id: Number(raw.id),
        site: site.slug || 'main',
        title: String((raw.title as { raw?: string } | undefined)?.raw ?? ''),
        status: String(raw.status ?? ''),
        author: Number(raw.author ?? 0),
      });
    }
  }
  return out;
}
