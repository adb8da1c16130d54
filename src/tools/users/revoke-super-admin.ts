import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { wpId } from '../schema.js';
import { refusal } from '../refusals.js';
import { none, required } from './risk.js';
import { networkUndo } from './undo-users.js';
import { describeSites, NETWORK, networkUser, networkUserOutput, requireNetwork } from './network.js';

/** Network only: the account keeps its roles per site and loses the network-wide powers. */
export const revokeSuperAdmin = defineTool({
  name: 'revoke-super-admin',
  toolkit: 'users',
  network: true,
  networkWide: true,
  description: 'Network: take super admin away from a user (their site roles stay).',
  schema: z.strictObject({ user_id: wpId() }),
  outputSchema: networkUserOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: networkUndo((_p, name) => `revoked super admin of ${name}`),
  async review({ client }, params) {
    await requireNetwork(client, 'Revoking super admin');
    const user = await networkUser(client, params.user_id);
    if (!user.super_admin) return none(`${user.username} is not a super admin: nothing changes`);
    // The plugin refuses it under WordPress's own count too; said before anyone is asked.
    if ((user.super_admins ?? 0) <= 1) {
      throw refusal('last_super_admin', `${user.username} is the network's only super admin. Nothing was changed.`);
    }
    // Taking network-wide power away can lock the network's owners out: a person decides.
    return required(`revoke super admin of ${user.username}; they keep their site roles (${describeSites(user)})`);
  },
  async execute({ client }, params) {
    await requireNetwork(client, 'Revoking super admin');
    return client.delete(`${NETWORK}/super-admins/${params.user_id}`);
  },
});
