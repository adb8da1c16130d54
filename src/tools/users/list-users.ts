import { z } from 'zod';
import { decodeEntities, type WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { companionEntry, hasCompanion, INSTALL_HINT } from '../companion.js';
import { type ListSource, listPage, memorySource, pagingParams } from '../answers/page.js';
import { parseIsoDate } from './dates.js';
import { type RawUser, toUser, USER_FIELDS, type UserRecord } from './records.js';
import { resolveRole } from './roles.js';
import { usersWindow } from './users-window.js';
import { LAST_LOGIN_FIELD, lastLoginNote, lastLoginOf, lastLoginQuery } from './last-login.js';
import { text } from '../schema.js';

const USERS = '/wp/v2/users';
/** The full record adds what the profile screen shows besides the concise fields. */
const FULL_FIELDS = `${USER_FIELDS},description,url,first_name,last_name`;

type Listed = UserRecord & { last_login?: string; bio?: string; url?: string; first_name?: string; last_name?: string };
/** An account WordPress lists to this one without its details: this one may not edit it. */
type Unseen = { id: number; name: string; may_edit: false };

const UNSEEN_NOTE =
  'may_edit false: WordPress shows this account only the name of these accounts, not their username, email or roles, because it may not edit them (on a multisite network only a super admin edits network accounts; the companion plugin keeps an account from editing a stronger one). Ask a super admin, or an administrator, to act on them.';
const NETWORK_DATES_NOTE =
  'On a multisite network WordPress shows a site administrator the registration date only of the accounts they may edit, so registered_after cannot find the others: list without registered_after to see every account of this site.';

export const listUsers = defineTool({
  name: 'list-users',
  toolkit: 'users',
  description: 'Users by id; where a user id goes, a login or email works too (digits: an id).',
  schema: () => z.strictObject({
    role: text().optional(),
    search: text().optional().describe('In username, name or email'),
    registered_after: z.string().optional().describe('ISO 8601'),
    inactive_since: z.string().optional().describe('Last login before'),
    full: z.boolean().optional().describe('Add bio, url, names'),
    ...pagingParams,
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor, full, ...filters }) {
    const { client } = context;
    const cutoff =
      filters.registered_after === undefined ? undefined : parseIsoDate(filters.registered_after, 'registered_after');
    const role = filters.role === undefined ? undefined : await resolveRole(client, filters.role);
    // The companion plugin's record of last logins (0.7.0), and its filter (#60.9).
    const login = await lastLoginQuery(client, filters.inactive_since);
    const fields = `${full ? FULL_FIELDS : USER_FIELDS}${login.since ? `,${LAST_LOGIN_FIELD}` : ''}`;
    // WordPress wraps `search` in `*…*` itself (a substring match of login, email, URL, nicename
    // and display name; email only when it holds "@"): WP_User_Query::prepare_query()
    // https://github.com/WordPress/wordpress-develop/blob/6.8/src/wp-includes/class-wp-user-query.php
    const query = { context: 'edit', _fields: fields, roles: role, search: filters.search, ...login.query };
    const toRecord = (raw: RawUser) => record(raw, full ?? false);
    const source =
      cutoff === undefined
        ? windowSource(client, query, toRecord)
        : memorySource((await registeredAfter(client, query, cutoff)).map(toRecord), (u) => u.id);
    const page = await listPage(context, source, {
      tool: 'list-users',
      filters: { ...filters, role },
      limit,
      cursor,
      // ~160 characters a user: 50 fit the default page budget in one request of 50.
      defaultLimit: 50,
      narrowWith: 'search, role, registered_after or inactive_since',
    });
    const items = page.items as Array<Listed | Unseen>;
    const notes: string[] = [];
    if (items.some((u) => 'may_edit' in u)) notes.push(UNSEEN_NOTE);
    if (items.some((u) => 'disabled' in u && u.disabled === null)) {
      notes.push(`disabled is null: without the companion plugin the disabled state is unknown. ${INSTALL_HINT}`);
    }
    if (cutoff !== undefined && (await siteAdminOfNetwork(client))) notes.push(NETWORK_DATES_NOTE);
    const logins = await lastLoginNote(client, login, query, items.some((u) => 'last_login' in u && u.last_login === 'unknown'));
    if (logins) notes.push(logins);
    if (notes.length) page.note = notes.join(' ');
    return page;
  },
});

function record(raw: RawUser & Record<string, unknown>, full: boolean): Listed {
  const lastLogin = lastLoginOf(raw);
  const user: Listed = { ...toUser(raw), ...(lastLogin ? { last_login: lastLogin } : {}) };
  if (!full) return user;
  return {
    ...user,
    bio: String(raw.description ?? ''),
    url: String(raw.url ?? ''),
    first_name: String(raw.first_name ?? ''),
    last_name: String(raw.last_name ?? ''),
  };
}

function windowSource(
  client: WordPressClient,
  query: Record<string, string | undefined>,
  toRecord: (raw: RawUser) => Listed,
): ListSource<Listed | Unseen> {
  return {
    key: (u) => u.id,
    fetch: async (window) => {
      const { items, total } = await usersWindow<RawUser>(client, query, window);
      return {
        items: items.map((u) => (u.editable ? toRecord(u.editable) : { id: u.id, name: decodeEntities(u.name), may_edit: false as const })),
        total,
      };
    },
  };
}

/** A site administrator (not a super admin) of a multisite network, as the companion plugin (0.5.1) says. */
async function siteAdminOfNetwork(client: WordPressClient): Promise<boolean> {
  const entry = await companionEntry(client);
  return entry?.network === true && entry.super_admin === false;
}

/**
 * The REST API has no date filter. With the companion plugin (which adds the id as a tie-break
 * to the date order, see plugin/…/rest-routes.php), read newest first and stop at the first
 * user registered at or before the cutoff; without it, date-ordered pages may repeat or skip
 * users, so read all by id.
 */
async function registeredAfter(
  client: WordPressClient,
  query: Record<string, string | undefined>,
  cutoff: number,
): Promise<RawUser[]> {
  const after = (raw: RawUser) => Date.parse(raw.registered_date ?? '') > cutoff;
  if (!(await hasCompanion(client, 'users/registered-order'))) return (await client.all<RawUser>(USERS, { ...query, orderby: 'id' })).filter(after);
  const items: RawUser[] = [];
  const pages = client.pages<RawUser>(USERS, { ...query, orderby: 'registered_date', order: 'desc' }, { concurrency: 1 });
  for await (const page of pages) {
    for (const raw of page) {
      if (!after(raw)) return items;
      items.push(raw);
    }
  }
  return items;
}
