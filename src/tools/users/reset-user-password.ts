import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { forUser, getUser, maskEmail } from './records.js';
import { required } from './risk.js';
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
  description: 'Start a password reset (old password stays valid): email the user a reset link, or return it.',
  schema: z.strictObject({
    id: wpId(),
    delivery: z.enum(['email', 'link']).optional().describe('email (default) or link: return the link'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async review({ client }, params) {
    const user = await getUser(client, params.id);
    return required(
      params.delivery === 'link'
        ? `make a password reset link for ${user.username} (shown to you, not to the model)`
        : `email a password reset link for ${user.username} to ${user.email}`,
    );
  },
  async execute({ client }, params) {
    await requireCompanion(client, 'Starting a password reset');
    const delivery = params.delivery ?? 'email';
    const reset = await forUser(params.id, () =>
      client.post<ResetResponse>(`/${COMPANION_NAMESPACE}/users/${params.id}/password-reset`, { delivery }),
    );
    const expires_in_hours = Math.round((reset.expires_in_seconds / 3600) * 10) / 10;
    if (delivery === 'email') {
      // The link stays in the user's mailbox: it never reaches the model.
      return {
        id: reset.id,
        username: reset.username,
        delivery,
        sent_to: maskEmail(reset.sent_to ?? ''),
        expires_in_hours,
      };
    }
    return {
      id: reset.id,
      username: reset.username,
      delivery,
      sensitive: true,
      reset_link: reset.reset_link,
      expires_in_hours,
      note: 'Give the link only to the user: whoever opens it can set the password. A newer reset replaces it.',
    };
  },
});
