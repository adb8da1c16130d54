import { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { userOutput } from '../output-schemas.js';
import { requireCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import { wpId } from '../schema.js';
import { type Account, explainAccountError, readAccount, refuseSelf, refuseStronger } from './accounts.js';
import { forUser } from './records.js';
import { required } from './risk.js';
import { contentFate, contentOutcome, loadUserContent } from './user-content.js';

interface DeleteParams {
  id: number;
  reassign_to?: number;
  delete_content?: boolean;
}

export const deleteUser = defineTool({
  name: 'delete-user',
  toolkit: 'users',
  description: 'Delete an account for good; its posts go to reassign_to. Always needs approval.',
  schema: z.strictObject({
    id: wpId(),
    // Required in effect: omitted or null is refused unless delete_content is true. Not a
    // required nullable in the schema: Gemini's schema subset has no null type.
    reassign_to: wpId().optional().describe('Required: user id who gets the posts; null only with delete_content'),
    delete_content: z.boolean().optional().describe('Delete the posts instead'),
  }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async review({ client }, params) {
    // Every refusal is found here already: no one is asked about a call that would fail.
    const { account, heir, content } = await plan(client, params);
    const roles = account.roles.join(', ') || 'none';
    return required(
      `delete ${account.username}'s account (roles: ${roles}) and ${contentFate(content, heir?.username)}; this cannot be undone`,
    );
  },
  async execute({ client }, params) {
    const { account, heir, content } = await plan(client, params);
    const { id } = params;
    await forUser(id, () => client.delete(`/wp/v2/users/${id}`, { force: true, reassign: heir?.id ?? 'false' })).catch(
      (err) => {
        throw explainAccountError(err);
      },
    );
    const answer: Record<string, unknown> = { id, username: account.username, deleted: true };
    if (heir) answer.reassigned_to = heir;
    for (const [key, counts] of Object.entries(contentOutcome(content, heir !== undefined))) {
      if (Object.keys(counts).length) answer[key] = counts;
    }
    if (content.links) answer.links = content.links;
    answer.note = 'Deleting an account cannot be undone.';
    return answer;
  },
});

/** The checks the plugin makes too, in its order, and what the account owns. */
async function plan(client: WordPressClient, { id, reassign_to, delete_content }: DeleteParams) {
  await requireCompanion(client, 'Deleting a user', 'users/delete');
  if (reassign_to == null && !delete_content) {
    throw new ToolError(
      'reassign_required',
      'Say who gets the user’s posts (reassign_to), or delete them with delete_content: true and reassign_to: null. Nothing was changed.',
    );
  }
  if (reassign_to != null && delete_content) {
    throw new ToolError(
      'conflicting_params',
      'Give either reassign_to or delete_content: true, not both. Nothing was changed.',
    );
  }
  const hint = 'Delete it from another administrator account, if at all.';
  await refuseSelf(client, id, 'delete', { code: 'cannot_delete_self', hint });
  const account = await readAccount(client, id);
  // "Last administrator" first, as the plugin does: it says more than "stronger".
  await refuseLastAdministrator(client, account);
  await refuseStronger(client, account, 'delete');
  const heir = reassign_to == null ? undefined : await checkHeir(client, id, reassign_to);
  const content = await loadUserContent(client, id);
  return { account, heir, content };
}

async function checkHeir(
  client: WordPressClient,
  id: number,
  heirId: number,
): Promise<{ id: number; username: string }> {
  const invalid = (why: string) =>
    new ToolError('invalid_reassign', `${why} Nothing was changed.`, {
      hint: 'Give reassign_to: the id of another user who can write posts (list-users).',
    });
  if (heirId === id) throw invalid('The posts cannot go to the account being deleted.');
  const heir = await readAccount(client, heirId).catch((err) => {
    throw err instanceof ToolError && err.code === 'user_not_found'
      ? invalid(`No user with id ${heirId} to give the posts to.`)
      : err;
  });
  if (!heir.capabilities.edit_posts) {
    const roles = heir.roles.join(', ') || 'none';
    throw invalid(`${heir.username} cannot write posts (no edit_posts; roles: ${roles}), so cannot own them.`);
  }
  return { id: heir.id, username: heir.username };
}

/** An enabled administrator is deleted only while another enabled one remains. */
async function refuseLastAdministrator(client: WordPressClient, account: Account): Promise<void> {
  if (!account.capabilities.manage_options || account.disabled === true) return;
  const admins = await client.all<{ id: number; cms_disabled?: boolean }>('/wp/v2/users', {
    capabilities: 'manage_options',
    context: 'edit',
    _fields: 'id,cms_disabled',
  });
  if (admins.some((a) => a.id !== account.id && a.cms_disabled !== true)) return;
  throw new ToolError(
    'last_administrator',
    `${account.username} is the last enabled administrator; deleting it would leave the site without one. Nothing was changed.`,
    { hint: 'Make another administrator first.' },
  );
}
