import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { accountListOutput } from '../output-schemas.js';
import { wpId } from '../schema.js';
import { ownAppPasswordUuid, targetAccount } from './accounts.js';
import { loadAppPasswords, MAX_LISTED } from './app-passwords.js';

export const listAppPasswords = defineTool({
  name: 'list-app-passwords',
  toolkit: 'users',
  description: 'A user’s application passwords (never the secret).',
  schema: () => z.strictObject({ user_id: wpId() }),
  outputSchema: accountListOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }, { user_id }) {
    const account = await targetAccount(client, user_id, 'see the application passwords of');
    const items = await loadAppPasswords(client, user_id);
    const me = await client.connect();
    // Marked, so no one revokes the toolkit's own access by mistake.
    const own = items.length && me.id === user_id ? await ownAppPasswordUuid(client) : undefined;
    const shown = items
      .slice(0, MAX_LISTED)
      .map((item) => (item.uuid === own ? { ...item, used_by_this_toolkit: true } : item));
    const answer: Record<string, unknown> = { user_id, username: account.username, total: items.length, items: shown };
    if (items.length > shown.length)
      answer.more = `${items.length - shown.length} more not shown (least recently used).`;
    return answer;
  },
});
