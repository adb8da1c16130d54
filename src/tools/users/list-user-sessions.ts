import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { accountListOutput } from '../output-schemas.js';
import { wpId } from '../schema.js';
import { explainAccountError, targetAccount } from './accounts.js';
import { loadSessions } from './sessions.js';

export const listUserSessions = defineTool({
  name: 'list-user-sessions',
  toolkit: 'users',
  description: 'A user’s login sessions.',
  schema: () => z.strictObject({ user_id: wpId() }),
  outputSchema: accountListOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }, { user_id }) {
    await targetAccount(client, user_id, 'see the login sessions of');
    const sessions = await loadSessions(client, user_id, 'Listing login sessions').catch((err) => {
      throw explainAccountError(err);
    });
    return { user_id, username: sessions.username, total: sessions.total, items: sessions.items.slice(0, 200) };
  },
});
