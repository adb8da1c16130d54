import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { COMPANION_NAMESPACE, requireCompanion } from '../companion.js';
import { forUser } from './records.js';
import { wpId } from '../schema.js';

export const enableUser = defineTool({
  name: 'enable-user',
  toolkit: 'users',
  description: 'Undo disable-user.',
  schema: z.strictObject({
    id: wpId(),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute({ client }, params) {
    await requireCompanion(client, 'Enabling a user');
    const state = await forUser(params.id, () =>
      client.post<{ id: number; username: string; was_disabled: boolean }>(
        `/${COMPANION_NAMESPACE}/users/${params.id}/enable`,
      ),
    );
    return { id: state.id, username: state.username, disabled: false, was_disabled: state.was_disabled };
  },
});
