import { z } from 'zod';
import { defineTool, type ToolContext } from '../define-tool.js';
import { roleOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { refusal } from '../refusals.js';
import { capsDiff, guardRoleChange, type RoleChange, reviewRoleChange } from './role-change.js';
import { powerWords } from './capability-words.js';
import { roleSlug } from './role-params.js';
import { needRoleRoutes, readRole, removeRole } from './role-routes.js';
import { refuseStrongerRole } from './guards.js';
import { rolePowers, withPowers } from './risk.js';

type Params = { slug: string; move_users_to?: string; force?: boolean };

const DEFAULT_ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

async function plan({ client }: ToolContext, params: Params): Promise<RoleChange & { userIds: number[] }> {
  await needRoleRoutes(client, 'Deleting a role');
  if (params.slug === 'administrator' || (DEFAULT_ROLES.includes(params.slug) && !params.force))
    throw refusal('default_role_protected', `${params.slug} is one of WordPress’s five default roles: ${params.slug === 'administrator' ? 'administrator is never deleted' : 'deleting it needs force: true'}. Nothing was changed.`);
  const role = await readRole(client, params.slug);
  if (!role) throw new ToolError('unknown_role', `There is no role "${params.slug}" on this site.`, { hint: 'list-user-roles lists this site’s roles.' });
  if (role.users_count && !params.move_users_to)
    throw refusal('role_has_users', `${role.users_count} account(s) have the role ${params.slug}: say which role they get instead (move_users_to). Nothing was changed.`, { users_count: role.users_count });
  if (params.move_users_to) {
    if (params.move_users_to === params.slug || !(await readRole(client, params.move_users_to)))
      throw new ToolError('unknown_role', `There is no other role "${params.move_users_to}" on this site to move the accounts to.`, { hint: 'list-user-roles lists this site’s roles.' });
    if (role.users_count) await refuseStrongerRole(client, params.move_users_to);
  }
  return { slug: params.slug, name: role.name, from: role.capabilities, to: null, users: role.users_count, moveTo: params.move_users_to, userIds: role.users };
}

export const deleteRole = defineTool({
  name: 'delete-role',
  toolkit: 'users',
  description: 'Delete a role; its accounts get move_users_to.',
  schema: () => z.strictObject({
    slug: roleSlug(),
    move_users_to: roleSlug().optional().describe('Role its accounts get; required when it has any'),
    force: z.boolean().optional().describe('Needed for editor, author, contributor, subscriber'),
  }),
  outputSchema: roleOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: {
    // The role with its capabilities, and each of its accounts' roles: an undo gives both back.
    scope: async ({ client }, params) => ({ roles: [params.slug], users: (await readRole(client, params.slug))?.users ?? [] }),
    summary: (params, result: { users_moved?: number }) =>
      `deleted the role ${params.slug}${result.users_moved ? `; ${result.users_moved} account(s) moved to ${params.move_users_to}` : ''}`,
  },
  async review(context, params) {
    const change = await plan(context, params);
    await guardRoleChange(context.client, change);
    const to = change.moveTo && change.users ? `, its accounts get ${withPowers(change.moveTo, (await rolePowers(context.client))(change.moveTo))}` : '';
    const review = reviewRoleChange(change, `delete the role ${change.name} (${change.slug})${to}`);
    // Power its accounts gain through the role they move to is named like any grant.
    const target = change.moveTo && change.users ? await readRole(context.client, change.moveTo) : null;
    const gained = powerWords(capsDiff(change.from, target?.capabilities ?? null).gained);
    return gained ? { ...review, summary: `${review.summary}; its accounts gain power: ${gained}` } : review;
  },
  async execute(context, params) {
    const change = await plan(context, params);
    await guardRoleChange(context.client, change);
    const done = await removeRole(context.client, params.slug, params.move_users_to, params.force);
    return {
      role: params.slug,
      name: done.name,
      deleted: true,
      users_moved: done.users_count,
      ...(done.users_count ? { moved_to: params.move_users_to, user_ids: done.users.slice(0, 100) } : {}),
    };
  },
});
