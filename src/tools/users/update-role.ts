import { z } from 'zod';
import { defineTool, type ToolContext } from '../define-tool.js';
import { roleOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { text } from '../schema.js';
import { denied } from './create-role.js';
import { applyCaps, capsDiff, grantedOf, guardRoleChange, type RoleChange, reviewRoleChange } from './role-change.js';
import { capList, roleSlug } from './role-params.js';
import { needRoleRoutes, putRole, readRole } from './role-routes.js';

type Params = { slug: string; name?: string; add_capabilities?: string[]; remove_capabilities?: string[] };

async function plan({ client }: ToolContext, params: Params): Promise<RoleChange> {
  await needRoleRoutes(client, 'Changing a role');
  if (!params.name && !params.add_capabilities?.length && !params.remove_capabilities?.length)
    throw new ToolError('no_changes', 'Nothing to change: give name, add_capabilities or remove_capabilities.');
  const role = await readRole(client, params.slug);
  if (!role) throw new ToolError('unknown_role', `There is no role "${params.slug}" on this site.`, { hint: 'list-user-roles lists this site’s roles.' });
  const to = applyCaps(role.capabilities, params.add_capabilities, params.remove_capabilities);
  return { slug: params.slug, name: params.name ?? role.name, from: role.capabilities, to, users: role.users_count };
}

function words(change: RoleChange, params: Params, was: string): string {
  const { gained, lost } = capsDiff(change.from, change.to);
  const parts = [
    params.name && params.name !== was ? `rename it ${params.name}` : '',
    gained.length ? `add ${gained.join(', ')}` : '',
    lost.length ? `remove ${lost.join(', ')}` : '',
  ].filter(Boolean);
  return `change the role ${was} (${change.slug}): ${parts.join(', ') || 'nothing changes'}`;
}

export const updateRole = defineTool({
  name: 'update-role',
  toolkit: 'users',
  description: 'Rename a role, add or remove its capabilities.',
  schema: () => z.strictObject({
    slug: roleSlug(),
    name: text(200).optional().describe('New display name'),
    add_capabilities: capList().optional(),
    remove_capabilities: capList().optional(),
  }),
  outputSchema: roleOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: {
    scope: async (_context, params) => ({ roles: [params.slug] }),
    summary: (params, _result, before) => {
      const was = before.roles?.[params.slug];
      const add = params.add_capabilities?.length ? ` +${params.add_capabilities.join(', +')}` : '';
      const remove = params.remove_capabilities?.length ? ` -${params.remove_capabilities.join(', -')}` : '';
      return `changed the role ${params.slug}${params.name && params.name !== was?.name ? ` (renamed ${params.name})` : ''}${add}${remove}`;
    },
  },
  async review(context, params) {
    const change = await plan(context, params);
    await guardRoleChange(context.client, change);
    const role = await readRole(context.client, params.slug);
    return reviewRoleChange(change, words(change, params, role?.name ?? params.slug));
  },
  async execute(context, params) {
    const change = await plan(context, params);
    await guardRoleChange(context.client, change);
    const { gained, lost } = capsDiff(change.from, change.to);
    const made = await putRole(context.client, params.slug, { ...(params.name ? { name: params.name } : {}), capabilities: change.to ?? {} });
    return {
      role: made.role,
      name: made.name,
      added: gained,
      removed: lost,
      capabilities: grantedOf(made.capabilities),
      ...denied(made.capabilities),
      users_count: made.users_count,
    };
  },
});
