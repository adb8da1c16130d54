import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { appPasswordsOutput } from '../output-schemas.js';
import { pagingParams } from '../answers/page.js';
import { wpId } from '../schema.js';
import { ownAppPasswordUuid, targetAccount } from './accounts.js';
import { loadAppPasswords, MAX_LISTED } from './app-passwords.js';
import { sweepAppPasswords } from './app-password-sweep.js';

export const listAppPasswords = defineTool({
  name: 'list-app-passwords',
  toolkit: 'users',
  description: "Application passwords (no secret), a user's or all.",
  schema: () => z.strictObject({ user_id: wpId().optional(), ...pagingParams }),
  outputSchema: appPasswordsOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { user_id, limit, cursor }) {
    // "Who has application passwords?" in one call (#36), paged.
    if (user_id === undefined) return sweepAppPasswords(context, { limit, cursor });
    const { client } = context;
    const account = await targetAccount(client, user_id, 'see the application passwords of');
    const items = await loadAppPasswords(client, user_id);
    const me = await client.connect();
    // Marked, so no one revokes the toolkit's own access by mistake.
    const own = items.length && me.id === user_id ? await ownAppPasswordUuid(client) : undefined;
    const shown = items
      .slice(0, limit ?? MAX_LISTED)
      .map((item) => (item.uuid === own ? { ...item, used_by_this_toolkit: true } : item));
    const answer: Record<string, unknown> = { user_id, username: account.username, total: items.length, items: shown };
    if (items.length > shown.length)
      answer.more = `${items.length - shown.length} more not shown (least recently used).`;
    return answer;
  },
});
