import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { wpId } from '../schema.js';
import { refusal } from '../refusals.js';
import { required } from './risk.js';
import { networkUndo } from './undo-users.js';
import { membershipOn, NETWORK, networkUser, networkUserOutput, requireNetwork, siteParam, siteRef, userLabel } from './network.js';

/** Network only: the account leaves one site (and keeps the others); its posts there go to reassign_to. */
export const removeUserFromSite = defineTool({
  name: 'remove-user-from-site',
  toolkit: 'users',
  network: true,
  networkWide: true,
  description: 'Network: remove a user from one site; their posts there go to reassign_to.',
  schema: z.strictObject({ user_id: wpId(), site: siteParam(), reassign_to: wpId().optional().describe('Heir of their posts there') }),
  outputSchema: networkUserOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  // An undo puts the account back on the site with its role; the posts stay with their new author.
  undo: networkUndo(
    (p, name) => `removed ${name} from site ${p.site}${p.reassign_to ? `, posts to user ${p.reassign_to}` : ''}`,
    async ({ client }, p) => {
      const posts = membershipOn(await networkUser(client, p.user_id), p.site)?.posts ?? 0;
      // The heir by login where it can be read ("bob (user 4)"; #52.11).
      return posts ? [`${posts} post(s) on site ${p.site} went to ${await userLabel(client, p.reassign_to)}: an undo leaves them there`] : [];
    },
  ),
  async review({ client }, params) {
    await requireNetwork(client, 'Removing a user from a site');
    const user = await networkUser(client, params.user_id);
    const on = membershipOn(user, params.site);
    if (!on) throw refusal('not_member', `${user.username} does not belong to site ${params.site}. Nothing was changed.`);
    const posts = on.posts ?? 0;
    if (posts > 0 && params.reassign_to === undefined) {
      throw refusal('content_needs_heir', `${user.username} has ${posts} post(s) on site ${params.site}. Nothing was changed.`);
    }
    const heir = posts > 0 && params.reassign_to ? `; ${posts} post(s) there go to ${await userLabel(client, params.reassign_to)}` : '';
    return required(`remove ${user.username} from site ${params.site} (was ${on.roles.join(', ') || 'no role'})${heir}; their other sites stay`);
  },
  async execute({ client }, params) {
    await requireNetwork(client, 'Removing a user from a site');
    const done = await client.delete<{ id: number; username: string; posts_reassigned: number; reassigned_to: number | null }>(
      `${NETWORK}/sites/${siteRef(params.site)}/users/${params.user_id}`,
      params.reassign_to ? { reassign: params.reassign_to } : undefined,
    );
    const after = await networkUser(client, params.user_id);
    return { ...done, site: params.site, sites: after.sites };
  },
});
