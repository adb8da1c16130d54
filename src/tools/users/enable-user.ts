import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { userUndo } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { forUser, getUser } from './records.js';
import { none, required } from './risk.js';
import { wpId } from '../schema.js';
import { refuseStrongerAccount } from './guards.js';
import { explainGuardError } from './write-errors.js';

export const enableUser = defineTool({
  name: 'enable-user',
  toolkit: 'users',
  description: 'Undo disable-user.',
  schema: () => z.strictObject({
    id: wpId(),
  }),
  // Destructive for MCP clients: it re-opens an account someone closed on purpose.
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: userUndo((_params, name) => `enabled ${name}`),
  async review({ client }, params) {
    // Found before anyone is asked (and in a dry run): the call could not succeed.
    await requireCompanion(client, 'Enabling a user', 'users/enable');
    const user = await getUser(client, params.id);
    const summary = `enable ${user.username}'s account (roles: ${user.roles.join(', ') || 'none'})`;
    return user.disabled === false ? none(`${summary}; it is not disabled`) : required(summary);
  },
  async execute({ client }, params) {
    await requireCompanion(client, 'Enabling a user', 'users/enable');
    // Re-opening a stronger account would undo its owner's (or an administrator's) decision.
    await refuseStrongerAccount(client, params.id, 'enable');
    const state = await forUser(params.id, () =>
      client.post<{ id: number; username: string; was_disabled: boolean }>(
        `/${COMPANION_NAMESPACE}/users/${params.id}/enable`,
      ),
    ).catch((err) => {
      throw explainGuardError(err);
    });
    return { id: state.id, username: state.username, disabled: false, was_disabled: state.was_disabled };
  },
});
