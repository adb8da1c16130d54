import { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { hasCompanion, INSTALL_HINT } from '../companion.js';
import { parseIsoDate } from './dates.js';
import { type RawUser, toUser, USER_QUERY, type UserRecord } from './records.js';
import { resolveRole } from './roles.js';
import { text } from '../schema.js';

const USERS = '/wp/v2/users';

export const listUsers = defineTool({
  name: 'list-users',
  toolkit: 'users',
  description: 'List users (every page) as {total, items}.',
  schema: z.strictObject({
    role: text().optional().describe('Role slug'),
    search: text().optional().describe('In username, name or email'),
    registered_after: z.string().optional().describe('ISO 8601 date (UTC unless given)'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }, params) {
    const cutoff =
      params.registered_after === undefined ? undefined : parseIsoDate(params.registered_after, 'registered_after');
    const role = params.role === undefined ? undefined : await resolveRole(client, params.role);
    const companion = await hasCompanion(client);
    // WordPress wraps `search` in `*…*` itself (a substring match); `roles` filters by role slug.
    const query = { ...USER_QUERY, roles: role, search: params.search };

    let items: UserRecord[];
    if (cutoff === undefined) {
      items = (await client.all<RawUser>(USERS, { ...query, orderby: 'id' })).map(toUser);
    } else if (companion) {
      items = await registeredSince(client, query, cutoff);
    } else {
      // Without the plugin's id tie-break, date-ordered pages may repeat or skip users; read all.
      items = (await client.all<RawUser>(USERS, { ...query, orderby: 'id' }))
        .filter((raw) => Date.parse(raw.registered_date ?? '') > cutoff)
        .map(toUser);
    }
    const result: Record<string, unknown> = { total: items.length, items };
    if (items.some((u) => u.disabled === null)) {
      result.note = `disabled is null: without the companion plugin the disabled state is unknown. ${INSTALL_HINT}`;
    }
    return result;
  },
});

/**
 * The REST API has no date filter: read newest first and stop at the first user registered at
 * or before the cutoff, one page at a time so no page is fetched in vain. The companion plugin
 * adds the user id as a tie-break to this order (see plugin/…/rest-routes.php).
 */
async function registeredSince(
  client: WordPressClient,
  query: Record<string, string | undefined>,
  cutoff: number,
): Promise<UserRecord[]> {
  const items: UserRecord[] = [];
  const pages = client.pages<RawUser>(
    USERS,
    { ...query, orderby: 'registered_date', order: 'desc' },
    { concurrency: 1 },
  );
  for await (const page of pages) {
    for (const raw of page) {
      if (!(Date.parse(raw.registered_date ?? '') > cutoff)) return items;
      items.push(toUser(raw));
    }
  }
  return items;
}
