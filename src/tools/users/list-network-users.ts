import { z } from 'zod';
import type { AnyToolDefinition } from '../define-tool.js';
import { defineTool } from '../define-tool.js';
import { listPage } from '../answers/page.js';
import { NETWORK, type NetworkUser, requireNetwork } from './network.js';
import { listUsers } from './list-users.js';
import { ToolError } from '../tool-error.js';

interface NetworkListing {
  users: NetworkUser[];
  total: number;
}

/**
 * list-users on a network: the same tool with `network: true`, which lists every account of the
 * network with its sites, its role on each and whether it is a super admin (the plugin reads
 * the roles of a whole window in one query). Without `network`, the site's own users as ever.
 */
export const listUsersOnNetwork: AnyToolDefinition = defineTool({
  ...(listUsers as AnyToolDefinition),
  description: 'Users by id (a login or email works too where an id goes; digits: an id). network: every network account, its sites and role per site, super admin.',
  schema: (listUsers.schema as z.ZodObject).safeExtend({
    network: z.boolean().optional(),
  }),
  networkWide: (params) => (params as { network?: boolean }).network === true,
  async execute(context, params) {
    const { network, limit, cursor, search, ...rest } = params as Record<string, any>;
    if (!network) return listUsers.execute(context, params as never);
    await requireNetwork(context.client, 'Listing the network’s users');
    if (Object.values(rest).some((v) => v !== undefined)) {
      throw new ToolError('network_filters', 'With network: true only search, limit and cursor apply. Nothing was listed.', {
        hint: 'Roles differ per site: list without role or registered_after, or list one site’s users without network.',
      });
    }
    return listPage(context, {
      key: (u: { id: number }) => u.id,
      fetch: async ({ offset, count }) => {
        const out = await context.client.get<NetworkListing>(`${NETWORK}/users`, {
          offset,
          per_page: Math.min(200, Math.max(1, count)),
          ...(search ? { search } : {}),
        });
        return { items: out.users.map(compact), total: out.total };
      },
    }, {
      tool: 'list-users',
      filters: { network: true, search },
      limit,
      cursor,
      // ~120 characters a user with three sites: 100 fit the default page budget.
      defaultLimit: 100,
      narrowWith: 'search',
    });
  },
});

/** Per user: the sites as "slug: role" pairs, the fewest characters that still say it all. */
function compact(u: NetworkUser) {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    super_admin: u.super_admin,
    sites: Object.fromEntries(u.sites.map((m) => [m.site || 'main', m.roles.join(',')])),
  };
}
