import { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { deleteUserUndo } from './undo-users.js';
import { userOutput } from '../output-schemas.js';
import { requireCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import { wpId } from '../schema.js';
import { explainAccountError, postAuthor, readAccount, refuseSelf, refuseStronger } from './accounts.js';
import { refusal } from '../refusals.js';
import { forUser } from './records.js';
import { isNetwork, networkToolsFor } from './network.js';
import { warnOldPlugin } from './guards.js';
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
  description: 'Delete an account for good, giving its posts to reassign_to.',
  schema: () =>
    z
      .strictObject({
        id: wpId(),
        // Required in effect: omitted or null is refused unless delete_content is true. Not a
        // required nullable in the schema: Gemini's schema subset has no null type.
        reassign_to: wpId().optional().describe('Heir id; null only with delete_content'),
        delete_content: z.boolean().optional().describe('Delete the posts instead'),
      })
      // Who gets the posts is a decision the call must make: without it the call is invalid
      // (invalid_params, CLI exit 2) like any call missing a required param, on every surface (#36).
      .refine((p) => p.reassign_to !== undefined || p.delete_content === true, {
        path: ['reassign_to'],
        message: 'is required: the id of the user who gets the posts, or null with delete_content: true',
      })
      .refine((p) => p.reassign_to === undefined || p.delete_content !== true, {
        path: ['reassign_to'],
        message: 'give either reassign_to or delete_content: true, not both',
      }),
  outputSchema: userOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  // The audit log's one-line summary hides the heir and the counts; with `answer` it keeps the
  // whole result as `detail`.
  answer: (result: unknown) => result,
  // With delete_content the trashed posts come back on undo; the account never does.
  undo: deleteUserUndo,
  async review({ client }, params) {
    // Every refusal is found here already: no one is asked about a call that would fail.
    const { account, heir, content } = await plan(client, params);
    const roles = account.roles.join(', ') || 'none';
    return required(
      `delete ${account.username}'s account (roles: ${roles}) and ${contentFate(content, heir?.username)}; ${params.delete_content ? 'the account cannot be recreated (an undo takes the trashed posts and pages out of the Trash)' : 'this cannot be undone'}`,
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
    answer.note = params.delete_content
      ? 'The account cannot be recreated; undo-change takes the trashed posts and pages out of the Trash.'
      : 'Deleting an account cannot be undone.';
    return answer;
  },
});

/**
 * A site of a multisite network cannot delete an account: WordPress deletes one only from the
 * whole network (core's users route answers 501 `rest_cannot_delete` on a network). Said before
 * anyone is asked, with the form that can, rather than a question about a delete that cannot run.
 */
async function refuseOnNetwork(client: WordPressClient): Promise<void> {
  if (!(await isNetwork(client))) return;
  const superAdmin = await networkToolsFor(client);
  throw new ToolError(
    'network_account',
    'On a multisite network WordPress deletes an account only from the whole network, not from one site. Nothing was deleted.',
    {
      hint: superAdmin
        ? 'Use delete-user where the network tools are listed (cms-admin invoke, chat or mcp on this site, or a toolkit with network: true): it deletes the account from the network, its posts on each site to reassign_to. remove-user-from-site takes it off one site only.'
        : 'Only a super admin of the network may delete or remove its accounts: ask one.',
    },
  );
}

/** The checks the plugin makes too, in its order, and what the account owns. */
async function plan(client: WordPressClient, { id, reassign_to }: DeleteParams) {
  // An older plugin's guards let other programs delete their own account through a query `id`: said once.
  await Promise.all([requireCompanion(client, 'Deleting a user', 'users/delete'), warnOldPlugin(client)]);
  await refuseOnNetwork(client);
  // The schema refuses a call without a heir and without delete_content, or with both.
  // "Last administrator" first: it says more than "yourself" or "stronger" (the site would be
  // left without one), and is the only way an administrator's own account is ever the last one.
  await refuseLastAdministrator(client, id);
  await refuseSelf(client, id, 'delete', 'cannot_delete_self');
  const account = await readAccount(client, id);
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
    refusal('invalid_reassign', `${why} Nothing was changed.`);
  if (heirId === id) throw invalid('The posts cannot go to the account being deleted.');
  // The public view: the heir may be an account the caller cannot edit (an editor, for a user manager).
  const heir = await postAuthor(client, heirId);
  if (!heir.exists) throw invalid(`No user with id ${heirId} to give the posts to.`);
  if (!heir.canWrite) throw invalid(`${heir.name} cannot write posts (no edit_posts), so cannot own them.`);
  return { id: heirId, username: heir.name };
}

/**
 * An enabled administrator is deleted only while another enabled one remains. Every
 * administrator is in the public view; the disabled state only in the edit view of those the
 * caller may edit (the others count as enabled: the plugin decides for them).
 */
async function refuseLastAdministrator(client: WordPressClient, id: number): Promise<void> {
  const query = { capabilities: 'manage_options', _fields: 'id,slug' };
  const [all, visible] = await Promise.all([
    client.all<{ id: number; slug: string }>('/wp/v2/users', query),
    client.all<{ id: number; username: string; cms_disabled?: boolean }>('/wp/v2/users', {
      ...query,
      context: 'edit',
      _fields: 'id,username,cms_disabled',
    }),
  ]);
  const target = all.find((a) => a.id === id);
  const disabled = new Set(visible.filter((a) => a.cms_disabled === true).map((a) => a.id));
  if (!target || disabled.has(id) || all.some((a) => a.id !== id && !disabled.has(a.id))) return;
  const name = visible.find((a) => a.id === id)?.username ?? target.slug;
  throw refusal('last_administrator', `${name} is the last enabled administrator; deleting it would leave the site without one. Nothing was changed.`);
}
