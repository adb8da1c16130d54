import { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { userUndo } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { refusal } from '../refusals.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { forUser, getUser } from './records.js';
import { required } from './risk.js';
import { explainGuardError } from './write-errors.js';
import { wpId } from '../schema.js';

interface DisableResponse {
  id: number;
  username: string;
  was_disabled: boolean;
  reason: string;
  disabled_at: string;
}

export const disableUser = defineTool({
  name: 'disable-user',
  toolkit: 'users',
  description: 'Block a user’s logins, app passwords and sessions until enable-user.',
  schema: () => z.strictObject({
    id: wpId(),
    reason: z.string().max(1000).meta({ maxLength: undefined }).optional(),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: userUndo((_params, name) => `disabled ${name}`),
  async review({ client }, params) {
    // Found before anyone is asked (and in a dry run): the call could not succeed.
    await refuseUnusable(client, params.id);
    const user = await getUser(client, params.id);
    // The reason is stored on the account (wp-admin and list-users show it): the person sees it too.
    const why = params.reason ? `, reason: "${params.reason.slice(0, 120)}${params.reason.length > 120 ? '…' : ''}"` : '';
    return required(`disable ${user.username}'s account (roles: ${user.roles.join(', ') || 'none'}${why})`);
  },
  async execute({ client }, params) {
    await refuseUnusable(client, params.id);
    const state = await forUser(params.id, () =>
      client.post<DisableResponse>(`/${COMPANION_NAMESPACE}/users/${params.id}/disable`, {
        reason: params.reason ?? '',
      }),
    ).catch((err) => {
      throw explainGuardError(err);
    });
    const result: Record<string, unknown> = {
      id: state.id,
      username: state.username,
      disabled: true,
      reason: state.reason,
      disabled_at: state.disabled_at,
    };
    if (state.was_disabled) result.already_disabled = true;
    return result;
  },
});

/** No companion plugin, or the toolkit's own account: refused, with the reason. */
async function refuseUnusable(client: WordPressClient, id: number): Promise<void> {
  await requireCompanion(client, 'Disabling a user', 'users/disable');
  const me = await client.connect();
  if (id === me.id) {
    throw refusal(
      'cannot_disable_self',
      `User ${me.id} (${me.username}) is the account this toolkit is signed in as; disabling it would lock the toolkit out. Nothing was changed.`,
    );
  }
}
