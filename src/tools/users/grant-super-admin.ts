import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { wpId } from '../schema.js';
import { required } from './risk.js';
import { networkUndo } from './undo-users.js';
import { describeSites, NETWORK, networkUser, networkUserOutput, requireNetwork } from './network.js';

/** Network only: every capability on every site of the network. Always a person's decision. */
export const grantSuperAdmin = defineTool({
  name: 'grant-super-admin',
  toolkit: 'users',
  network: true,
  networkWide: true,
  description: 'Network: make a user a super admin (all powers on every site).',
  schema: z.strictObject({ user_id: wpId() }),
  outputSchema: networkUserOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: networkUndo((_p, name) => `made ${name} a super admin`),
  async review({ client }, params) {
    await requireNetwork(client, 'Granting super admin');
    const user = await networkUser(client, params.user_id);
    if (user.super_admin) return { approval: 'none', summary: `${user.username} is already a super admin: nothing changes` };
    return required(
      `make ${user.username} a super admin: every capability on every site of the network (today: ${describeSites(user)})`,
    );
  },
  async execute({ client }, params) {
    await requireNetwork(client, 'Granting super admin');
    return client.post(`${NETWORK}/super-admins/${params.user_id}`);
  },
});
