import type { ToolContext } from '../tools/define-tool.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../tools/companion.js';
import { resolveTaxonomy } from '../tools/taxonomy/taxonomies.js';
import { ToolError } from '../tools/tool-error.js';
import { requireNetwork } from '../tools/users/network.js';

/**
 * Who or what a name stands for on the site (names.ts decides which params take one). Each found
 * item says whether it matches the name exactly (a login, an email, a slug) or is only close.
 */
export type Found = { id: number; label: string; exact: boolean };

type UserRow = { id: number; username?: string; email?: string; slug: string };
const label = (u: { username?: string; slug?: string; email?: string }) => `${u.username ?? u.slug}${u.email ? ` <${u.email}>` : ''}`;
const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

/** Logins read when a name is an email (a login may be one): at most this many pages of 100. */
const LOGIN_PAGES = 10;

/**
 * A site's accounts by login or email. WordPress searches a string with "@" in emails only
 * (WP_User_Query::prepare_query: `search_columns` = user_email), so a login that is another
 * account's email (#58.4: account 28's login `carol@example.test`, account 29's email) is not in
 * that answer: the logins are read apart, by the part before the "@" (6.8 on searches logins only
 * with `search_columns`; older versions ignore it and search every column), and both accounts come
 * back — the caller refuses the name as ambiguous.
 * https://developer.wordpress.org/reference/classes/wp_user_query/prepare_query/
 */
export async function siteUsers(context: ToolContext, name: string): Promise<Found[]> {
  const fields = { context: 'edit', _fields: 'id,username,email,slug' };
  const rows = await context.client.get<UserRow[]>('/wp/v2/users', { search: name, per_page: 100, ...fields });
  const found = new Map<number, Found>(rows.map((u) => [u.id, { id: u.id, label: label(u), exact: same(u.username, name) || same(u.email, name) }]));
  if (name.includes('@') && !rows.some((u) => same(u.username, name))) {
    const local = name.split('@').find((part) => part.trim() !== '') ?? name;
    let pages = 0;
    for await (const page of context.client.pages<UserRow>('/wp/v2/users', { search: local, search_columns: ['username'], per_page: 100, ...fields }, { concurrency: 1 })) {
      const login = page.find((u) => same(u.username, name));
      if (login) {
        found.set(login.id, { id: login.id, label: label(login), exact: true });
        break;
      }
      if (++pages >= LOGIN_PAGES) {
        // Not every login was read: an account whose login is this email may be among the rest.
        throw new ToolError('name_ambiguous', `"${name}": more than ${LOGIN_PAGES * 100} accounts match "${local}", so whether one has it as its login was not read to the end.`, {
          hint: 'Give the account’s id (list-users search=… shows it).',
        });
      }
    }
  }
  return [...found.values()];
}

type NetworkRow = { id: number; username: string; name: string };

/**
 * A network's accounts by login or email (the network tools act on any account of the network,
 * a member of the site or not: #60.4, add-user-to-site). Plugin 0.7.0 answers exact matches by
 * login and by email (includes/account-lookup.php); an older one is searched (logins exact).
 */
export async function networkUsers(context: ToolContext, name: string): Promise<Found[]> {
  // What the tool itself says first on a single site (not_a_network), before any name is read.
  await requireNetwork(context.client, 'Looking up an account of the network');
  const exact = (await hasCompanion(context.client, 'network/accounts'))
    ? (await context.client.get<{ accounts: Array<{ id: number; username: string; email: string }> }>(`/${COMPANION_NAMESPACE}/network/accounts`, { name })).accounts
    : [];
  const found = new Map<number, Found>(exact.map((u) => [u.id, { id: u.id, label: label(u), exact: true }]));
  if (found.size) return [...found.values()];
  const listing = await context.client.get<{ users: NetworkRow[] }>(`/${COMPANION_NAMESPACE}/network/users`, { search: name, per_page: 100 });
  return listing.users.map((u) => ({ id: u.id, label: u.username, exact: same(u.username, name) }));
}

type TermRow = { id: number; slug: string; name: string };

/** A taxonomy's terms by slug (one at most: slugs are unique in a taxonomy), else those whose name matches. */
export async function taxonomyTerms(context: ToolContext, taxonomy: string, name: string): Promise<Found[]> {
  const kind = await resolveTaxonomy(context.client, taxonomy);
  const bySlug = await context.client.get<TermRow[]>(kind.route, { slug: name, _fields: 'id,slug,name', hide_empty: false });
  if (bySlug.length) return bySlug.map((t) => ({ id: t.id, label: `${t.slug} '${t.name}'`, exact: true }));
  const close = await context.client.get<TermRow[]>(kind.route, { search: name, per_page: 10, _fields: 'id,slug,name', hide_empty: false });
  return close.map((t) => ({ id: t.id, label: `${t.slug} '${t.name}'`, exact: same(t.name, name) }));
}
