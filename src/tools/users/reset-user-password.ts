import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { irreversible, userWithLogin } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import { refusal } from '../refusals.js';
import { forUser, getUser, maskEmail } from './records.js';
import { required } from './risk.js';
import { explainGuardError } from './write-errors.js';
import { wpId } from '../schema.js';

interface ResetResponse {
  id: number;
  username: string;
  expires_in_seconds: number;
  sent_to?: string;
  reset_link?: string;
}

export const resetUserPassword = defineTool({
  name: 'reset-user-password',
  toolkit: 'users',
  description: 'Send a password reset link (old password stays valid).',
  schema: () => z.strictObject({
    id: wpId(),
    delivery: z.enum(['email', 'link']).optional().describe('link: to the operator'),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: irreversible('a reset link, once sent, cannot be taken back', (p, r) => `started a password reset for ${userWithLogin(r, p.id)} (${p.delivery ?? 'email'})`),
  async review({ client, secretsTo }, params) {
    // A call that cannot succeed is answered at once, before anyone is asked (approval.ts).
    if (params.delivery === 'link' && !secretsTo) throw noOneToReceive();
    const user = await getUser(client, params.id);
    // The plugin refuses a disabled account's reset (cms_admin_user_is_disabled): the same refusal now.
    if (user.disabled === true)
      throw refusal('user_disabled', `${user.username} is disabled; a disabled account gets no password reset. Nothing was changed.`);
    return required(
      params.delivery === 'link'
        ? `make a password reset link for ${user.username} (shown to you, not to the model); this cannot be undone`
        : `email a password reset link for ${user.username} to ${user.email}; this cannot be undone`,
    );
  },
  async execute({ client, secretsTo }, params) {
    await requireCompanion(client, 'Starting a password reset', 'users/password-reset');
    const delivery = params.delivery ?? 'email';
    // Refuse before a link exists: one made for no one would still replace the user's last one.
    if (delivery === 'link' && !secretsTo) throw noOneToReceive();
    const reset = await forUser(params.id, () =>
      client.post<ResetResponse>(`/${COMPANION_NAMESPACE}/users/${params.id}/password-reset`, { delivery }),
    ).catch((err) => {
      throw explainGuardError(err);
    });
    const expires_in_hours = Math.round((reset.expires_in_seconds / 3600) * 10) / 10;
    const base = { id: reset.id, username: reset.username, delivery };
    if (delivery === 'email') {
      // The link stays in the user's mailbox: it never reaches the model.
      return { ...base, sent_to: maskEmail(reset.sent_to ?? ''), expires_in_hours };
    }
    if (secretsTo === 'result') {
      return {
        ...base,
        sensitive: true,
        reset_link: reset.reset_link,
        expires_in_hours,
        note: 'Give the link only to the user: whoever opens it can set the password. A newer reset replaces it.',
      };
    }
    if (!secretsTo) throw noOneToReceive();
    const user = { id: reset.id, username: reset.username };
    const where = await secretsTo({ kind: 'reset_link', user, value: reset.reset_link ?? '', expires_in_hours });
    return {
      ...base,
      link_given_to: where,
      expires_in_hours,
      note: 'The link went to the operator, not to you: do not ask for it or repeat it. A newer reset replaces it.',
    };
  },
});

function noOneToReceive(): ToolError {
  return new ToolError(
    'no_one_to_receive_link',
    'A reset link opens the account, so it goes only to a person, and no one here can receive it. Nothing was changed.',
    {
      hint: 'Use delivery "email", or run the chat or tool shell (it shows the link on the terminal), `cms-admin invoke --show-reset-link`, or `cms-admin mcp --reveal-reset-links`.',
    },
  );
}
