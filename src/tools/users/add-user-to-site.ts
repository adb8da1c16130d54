import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { text, wpId } from '../schema.js';
import { refusal } from '../refusals.js';
import type { ToolError } from '../tool-error.js';
import { none, required, withPowers } from './risk.js';
import { networkUndo } from './undo-users.js';
import {
  describeSites,
  membershipOn,
  NETWORK,
  networkUser,
  networkUserOutput,
  powersOfRoleOn,
  requireNetwork,
  siteName,
  siteParam,
  siteRef,
} from './network.js';

/** Network only: an existing account joins one more site of the network, with a role there. */
export const addUserToSite = defineTool({
  name: 'add-user-to-site',
  toolkit: 'users',
  network: true,
  networkWide: true,
  description: 'Network: add an existing user to a site with a role.',
  schema: z.strictObject({ user_id: wpId(), site: siteParam(), role: text(64) }),
  outputSchema: networkUserOutput,
  // Adds, but a powerful role hands over the site and asks first: a client's hint says so (as create-user's).
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: networkUndo((p, name) => `added ${name} to site ${p.site} as ${p.role}`),
  async review({ client }, params) {
    await requireNetwork(client, 'Adding a user to a site');
    const user = await networkUser(client, params.user_id);
    const on = membershipOn(user, params.site);
    if (on) throw alreadyMember(user.username, siteName(on), on.roles);
    // Read from the site the role is given on: a role's capabilities differ per site.
    const powers = await powersOfRoleOn(client, params.site, params.role);
    const summary = `add ${user.username} to site ${params.site} as ${withPowers(params.role, powers)} (now on: ${describeSites(user)})`;
    // A role with powerful capabilities on any site hands over that site: a person decides.
    return powers.length ? required(summary) : none(summary);
  },
  async execute({ client }, params) {
    await requireNetwork(client, 'Adding a user to a site');
    const done = await client.post<{ id: number; username: string; site: { slug: string }; roles: string[] }>(
      `${NETWORK}/sites/${siteRef(params.site)}/users`,
      { user: params.user_id, role: params.role },
    );
    const after = await networkUser(client, params.user_id);
    return { id: done.id, username: done.username, site: done.site.slug || 'main', roles: done.roles, sites: after.sites };
  },
});

function alreadyMember(username: string, site: string, roles: string[]): ToolError {
  return refusal('already_member', `${username} already belongs to site ${site} (${roles.join(', ') || 'no role'}). Nothing was changed.`);
}
