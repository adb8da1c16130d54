import { z } from 'zod';
import { mapLimit, WordPressError } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { userOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { wpId } from '../schema.js';
import { explainAccountError, ownAppPasswordUuid, readAccount, targetAccount } from './accounts.js';
import { type AppPassword, loadAppPasswords } from './app-passwords.js';
import { none, required } from './risk.js';

export const revokeAppPasswords = defineTool({
  name: 'revoke-app-passwords',
  toolkit: 'users',
  description: 'Revoke one application password, or all of a user’s; the account stays enabled. Returns those revoked.',
  schema: z.strictObject({
    user_id: wpId().describe('User id'),
    uuid: z
      .string()
      .regex(/^[0-9a-f-]{36}$/i)
      .meta({ pattern: undefined })
      .optional()
      .describe('One password (list-app-passwords); omit for all'),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async review({ client }, { user_id, uuid }) {
    const [me, account, items] = await Promise.all([
      client.connect(),
      readAccount(client, user_id),
      loadAppPasswords(client, user_id),
    ]);
    const chosen = uuid ? items.filter((item) => item.uuid === uuid) : items;
    const names = chosen.slice(0, 5).map(describe).join(', ') + (chosen.length > 5 ? ', …' : '');
    const summary = `revoke ${chosen.length} application password(s) of ${account.username}${names ? `: ${names}` : ''} (cannot be undone; integrations using them stop working)`;
    return user_id === me.id ? none(summary) : required(summary);
  },
  async execute({ client }, { user_id, uuid }) {
    const me = await client.connect();
    const account = await targetAccount(client, user_id, 'revoke the application passwords of');
    const items = await loadAppPasswords(client, user_id);
    const own = me.id === user_id ? await ownAppPasswordUuid(client) : undefined;
    const chosen = uuid ? items.filter((item) => item.uuid === uuid) : items;
    if (uuid && !chosen.length) {
      throw new ToolError('app_password_not_found', `${account.username} has no application password ${uuid}.`, {
        hint: 'list-app-passwords shows the uuids.',
      });
    }
    if (own && chosen.some((item) => item.uuid === own)) throw ownPassword(uuid === undefined);
    const revoked: Array<Pick<AppPassword, 'uuid' | 'name'>> = [];
    const alreadyGone: string[] = [];
    // One by one rather than core's "delete all": exactly the passwords the approval named go.
    await mapLimit(chosen, 4, async (item) => {
      try {
        await client.delete(`/wp/v2/users/${user_id}/application-passwords/${item.uuid}`);
        revoked.push({ uuid: item.uuid, name: item.name });
      } catch (err) {
        if (err instanceof WordPressError && err.code === 'rest_application_password_not_found')
          alreadyGone.push(item.uuid);
        else throw explainAccountError(err);
      }
    });
    const answer: Record<string, unknown> = { id: user_id, username: account.username, revoked, count: revoked.length };
    if (alreadyGone.length) answer.already_gone = alreadyGone;
    if (!chosen.length) answer.note = `${account.username} had no application passwords.`;
    return answer;
  },
});

function describe(item: AppPassword): string {
  return `"${item.name}" (last used ${item.last_used ? item.last_used.slice(0, 10) : 'never'})`;
}

function ownPassword(all: boolean): ToolError {
  return new ToolError(
    'own_app_password',
    all
      ? 'Revoking all of them would revoke the application password this toolkit signs in with. Nothing was changed.'
      : 'That is the application password this toolkit signs in with; revoking it would lock the toolkit out. Nothing was changed.',
    {
      hint: all
        ? 'Revoke the others one by one by uuid (list-app-passwords marks the toolkit’s own with used_by_this_toolkit).'
        : 'Revoke it from another account, or in wp-admin under Users → Profile.',
    },
  );
}
