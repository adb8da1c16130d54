import { z } from 'zod';
import { type WordPressClient, WordPressError } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { irreversible, userWithLogin } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { refusal } from '../refusals.js';
import { wpId } from '../schema.js';
import { explainAccountError, ownAppPasswordUuid, targetAccount } from './accounts.js';
import { type AppPassword, loadAppPasswords } from './app-passwords.js';
import { none, required } from './risk.js';

export const revokeAppPasswords = defineTool({
  name: 'revoke-app-passwords',
  toolkit: 'users',
  description: 'Revoke a user’s application passwords; the account stays enabled.',
  schema: () => z.strictObject({
    user_id: wpId(),
    uuid: z
      .string()
      .regex(/^[0-9a-f-]{36}$/i)
      .meta({ pattern: undefined })
      .optional()
      .describe('Omit for all'),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  // The audit log's one-line summary says only how many; with `answer` it keeps the whole result
  // as `detail`: which passwords (uuid, name) were revoked, for an incident's record.
  answer: (result: unknown) => result,
  undo: irreversible('a revoked application password cannot be restored', (p, r) => `revoked ${p.uuid ? 'an application password' : 'all application passwords'} of ${userWithLogin(r, p.user_id)}`),
  async review({ client }, params) {
    // Every refusal is found here already: no one is asked about a call that would fail.
    const { me, account, chosen } = await choose(client, params);
    const names = chosen.slice(0, 5).map(describe).join(', ') + (chosen.length > 5 ? ', …' : '');
    const summary = `revoke ${chosen.length} application password(s) of ${account.username}${names ? `: ${names}` : ''} (cannot be undone; integrations using them stop working)`;
    return params.user_id === me.id ? none(summary) : required(summary);
  },
  async execute({ client }, params) {
    const { user_id } = params;
    const { account, chosen } = await choose(client, params);
    const alreadyGone: string[] = [];
    // One by one rather than core's "delete all": exactly the passwords the approval named go.
    // Not in parallel: WordPress keeps all of a user's passwords in one user meta array, and
    // concurrent deletes (or a password's last-used update) overwrite each other's write.
    // https://developer.wordpress.org/reference/classes/wp_application_passwords/delete_application_password/
    const revokeAll = async (items: AppPassword[]) => {
      for (const item of items) {
        try {
          await client.delete(`/wp/v2/users/${user_id}/application-passwords/${item.uuid}`);
        } catch (err) {
          if (err instanceof WordPressError && err.code === 'rest_application_password_not_found')
            alreadyGone.push(item.uuid);
          else throw explainAccountError(err);
        }
      }
    };
    await revokeAll(chosen);
    // Read back: a write that raced ours may have restored one; one more try, then say so.
    const left = async () => {
      const now = new Set((await loadAppPasswords(client, user_id)).map((item) => item.uuid));
      return chosen.filter((item) => now.has(item.uuid));
    };
    let remaining = await left();
    if (remaining.length) {
      await revokeAll(remaining);
      remaining = await left();
    }
    const revoked = chosen
      .filter((item) => !remaining.includes(item) && !alreadyGone.includes(item.uuid))
      .map(({ uuid, name }) => ({ uuid, name }));
    const answer: Record<string, unknown> = { id: user_id, username: account.username, revoked, count: revoked.length };
    if (alreadyGone.length) answer.already_gone = alreadyGone;
    if (remaining.length) {
      answer.not_revoked = remaining.map(({ uuid, name }) => ({ uuid, name }));
      answer.note = 'These came back after two tries (something else wrote the user’s passwords meanwhile); try again.';
    }
    if (!chosen.length) answer.note = `${account.username} had no application passwords.`;
    return answer;
  },
});

/** The passwords the call names, after the checks the plugin makes too. */
async function choose(client: WordPressClient, { user_id, uuid }: { user_id: number; uuid?: string }) {
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
  return { me, account, chosen };
}

function describe(item: AppPassword): string {
  return `"${item.name}" (last used ${item.last_used ? item.last_used.slice(0, 10) : 'never'})`;
}

function ownPassword(all: boolean): ToolError {
  return refusal(
    'own_app_password',
    all
      ? 'Revoking all of them would revoke the application password this toolkit signs in with. Nothing was changed.'
      : 'That is the application password this toolkit signs in with; revoking it would lock the toolkit out. Nothing was changed.',
  );
}
