import { z } from 'zod';
import type { AnyToolDefinition } from '../define-tool.js';
import { defineTool } from '../define-tool.js';
import { wpId } from '../schema.js';
import { refusal } from '../refusals.js';
import { required } from './risk.js';
import { irreversible, userWithLogin } from './undo-users.js';
import { requireCompanion } from '../companion.js';
import { type Membership, NETWORK, networkUser, networkUserOutput, requireNetwork, siteName, userLabel } from './network.js';

/**
 * delete-user on a network: the account leaves the whole network; on every site where it wrote
 * posts they go to reassign_to (who must belong to that site) first, since WordPress's
 * wpmu_delete_user() would delete them. Every site: archived ones and ones the account was
 * removed from too (plugin 0.5.3, #47.3), which wpmu_delete_user() never visits, so their posts
 * kept the deleted id. Deleting the posts instead is not offered here.
 */
export const deleteUserOnNetwork: AnyToolDefinition = defineTool({
  name: 'delete-user',
  toolkit: 'users',
  description: 'Delete an account from the whole network, its posts on each site to reassign_to.',
  schema: z.strictObject({ id: wpId(), reassign_to: wpId().optional().describe('Heir on every site with posts') }),
  outputSchema: networkUserOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  networkWide: true,
  undo: irreversible('a deleted account cannot be recreated (its posts went to another account)', (p, r) =>
    `deleted ${userWithLogin(r, p.id)} from the network${p.reassign_to ? `, posts to user ${p.reassign_to}` : ''}`,
  ),
  async review({ client }, params) {
    await requireNetwork(client, 'Deleting a network account');
    // An older plugin hands over posts only on the active sites the account still belongs to.
    await requireCompanion(client, 'Deleting a network account', 'network/delete');
    const user = await networkUser(client, params.id, true);
    if (user.super_admin) {
      throw refusal('delete_super_admin', `${user.username} is a super admin; WordPress never deletes one. Nothing was changed.`);
    }
    const other = user.other_sites ?? [];
    const withPosts = [...user.sites, ...other].filter((m) => (m.posts ?? 0) > 0);
    if (withPosts.length && params.reassign_to === undefined) {
      throw refusal('content_needs_heir', `${user.username} has posts on ${withPosts.map((m) => `${siteName(m)} (${m.posts})`).join(', ')}. Nothing was changed.`);
    }
    const heir = params.reassign_to ? await userLabel(client, params.reassign_to) : '';
    const posts = (m: Membership) => (m.posts ? `, ${m.posts} post(s) to ${heir}` : '');
    const each = [
      ...user.sites.map((m) => `${siteName(m)}: leaves (${m.roles.join(', ') || 'no role'})${posts(m)}`),
      // Sites wpmu_delete_user() alone would skip (#47.3): their posts kept the deleted id.
      ...other.map(
        (m) =>
          `${siteName(m)}${m.inactive ? ` (${m.inactive})` : ''}: ${m.member ? `leaves (${m.roles.join(', ') || 'no role'})` : 'no longer a member'}${posts(m)}`,
      ),
    ];
    return required(`delete ${user.username}'s account from the whole network; ${each.join('; ') || 'on no site'}; this cannot be undone`);
  },
  async execute({ client }, params) {
    await requireNetwork(client, 'Deleting a network account');
    await requireCompanion(client, 'Deleting a network account', 'network/delete');
    return client.delete(`${NETWORK}/users/${params.id}`, params.reassign_to ? { reassign: params.reassign_to } : undefined);
  },
});
