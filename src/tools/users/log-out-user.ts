import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { irreversible, userWithLogin } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { wpId } from '../schema.js';
import { explainAccountError, targetAccount } from './accounts.js';
import { forUser } from './records.js';
import { required } from './risk.js';
import { loadSessions } from './sessions.js';

const SELF = 'cannot_log_out_self';

export const logOutUser = defineTool({
  name: 'log-out-user',
  toolkit: 'users',
  description: 'End all login sessions of a user; the account stays enabled.',
  schema: () => z.strictObject({ user_id: wpId() }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: irreversible('ended sessions cannot be restored', (p, r) => `logged out ${userWithLogin(r, p.user_id)}`),
  async review({ client }, { user_id }) {
    // The refusals (self, stronger account, no plugin) are found here already.
    await requireCompanion(client, 'Logging a user out', 'users/sessions');
    const account = await targetAccount(client, user_id, 'log out', SELF);
    const sessions = await loadSessions(client, user_id, 'Logging a user out');
    const where = [...new Set(sessions.items.map((s) => s.ip).filter(Boolean))].slice(0, 5).join(', ');
    return required(
      `end ${sessions.total} login session(s) of ${account.username}${where ? ` (from ${where})` : ''}; the account stays enabled; this cannot be undone`,
    );
  },
  async execute({ client }, { user_id }) {
    await requireCompanion(client, 'Logging a user out', 'users/sessions');
    const account = await targetAccount(client, user_id, 'log out', SELF);
    const ended = await forUser(user_id, () =>
      client.delete<{ ended: number }>(`/${COMPANION_NAMESPACE}/users/${user_id}/sessions`),
    ).catch((err) => {
      throw explainAccountError(err);
    });
    return { id: user_id, username: account.username, sessions_ended: ended.ended, disabled: account.disabled };
  },
});
