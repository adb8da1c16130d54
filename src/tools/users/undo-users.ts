import type { ToolUndo } from '../define-tool.js';
import type { UndoState } from '../undo-data.js';
import { contentOutcome, loadUserContent } from './user-content.js';

/**
 * How the user tools' calls are journalled for undo (src/undo/): the user's email, name, bio,
 * roles and disabled state, read before and after the call; the engine restores them.
 */
type P = Record<string, any>;

const username = (before: UndoState, id: number) => before.users?.[id]?.username ?? `user ${id}`;

/** "user 12 (alice)" when the answer names the login (#52.11), else "user 12". */
export const userWithLogin = (result: unknown, id: unknown) => {
  const login = (result as { username?: unknown } | null | undefined)?.username;
  return `user ${String(id)}${typeof login === 'string' && login ? ` (${login})` : ''}`;
};

/** update-user, set-user-role, disable-user, enable-user: the user `id` (or `user_id`) as it was. */
export function userUndo(describe: (params: P, name: string, before: UndoState) => string): ToolUndo<P> {
  return {
    scope: async (_context, params) => ({ users: [params.id] }),
    summary: (params, _result, before) => describe(params, username(before, params.id), before),
  };
}

export const createUserUndo: ToolUndo<P> = {
  created: (result: { id: number }) => ({ users: [result.id] }),
  locate: (params) => ({ user: { username: params.username } }),
  summary: (params, result: { id: number; roles?: string[] }) =>
    `created user ${result.id} ${params.username}${result.roles?.length ? ` (${result.roles.join(', ')})` : ''}`,
};

/** A change that cannot be taken back: journalled, marked so, with the reason. */
export function irreversible(why: string, describe: (params: P, result: any) => string): ToolUndo<P> {
  return { irreversible: () => why, summary: (params, result) => describe(params, result) };
}

/**
 * delete-user (#34.7): the account cannot be recreated, but with delete_content its posts and
 * pages went to the Trash, and an undo takes them out again (src/undo/restore-trash.ts). The
 * entry names them; given to another account (reassign_to), nothing is left to undo.
 */
export const deleteUserUndo: ToolUndo<P> = {
  irreversible: (params) =>
    params.delete_content ? undefined : 'a deleted account cannot be recreated (its posts went to another account)',
  scope: async ({ client }, params) => {
    const [user, content] = await Promise.all([
      client.get<{ username?: string }>(`/wp/v2/users/${params.id}`, { context: 'edit', _fields: 'username' }),
      loadUserContent(client, params.id),
    ]);
    const who = `user ${params.id}${user.username ? ` (${user.username})` : ''}`;
    // What wp_delete_user deletes for good (other types, posts already in the Trash, links):
    // named, so an undo's answer counts only what it can give back (#47.4).
    const gone = Object.entries(contentOutcome(content, false).posts_deleted).map(([type, n]) => `${type} ${n}`);
    if (content.links) gone.push(`link ${content.links}`);
    const lost = gone.length ? [`${gone.join(', ')}: deleted for good with the account, cannot be restored`] : [];
    return { trashOf: params.id, notRestorable: [`${who}: a deleted account cannot be recreated`, ...lost] };
  },
  summary: (params, result: { username?: string; posts_trashed?: Record<string, number>; reassigned_to?: { username?: string } }, before) => {
    if (!params.delete_content) return `deleted ${userWithLogin(result, params.id)}, posts to ${userWithLogin(result.reassigned_to, params.reassign_to)}`;
    const ids = Object.keys(before.trashed ?? {});
    const total = Object.values(result.posts_trashed ?? {}).reduce((a, b) => a + b, 0);
    const shown = ids.slice(0, 20).join(', ') + (ids.length > 20 ? ` and ${ids.length - 20} more` : '');
    const unseen = total > ids.length ? `; ${total - ids.length} more in statuses REST does not list, not restorable` : '';
    return `deleted user ${params.id}${result.username ? ` (${result.username})` : ''}; ${ids.length} post(s) moved to the Trash${ids.length ? `: ${shown}` : ''}${unseen}`;
  },
};

/**
 * The network tools (docs/multisite.md): the account's super admin state and role per site,
 * read before and after through the plugin; an undo puts them back (undo/restore-network.ts).
 * `lost`: what an undo cannot give back, read before the call (posts given to someone else).
 */
export function networkUndo(
  describe: (params: P, name: string) => string,
  lost?: (context: Parameters<NonNullable<ToolUndo['scope']>>[0], params: P) => Promise<string[]>,
): ToolUndo<P> {
  return {
    scope: async (context, params) => ({
      networkUsers: [params.user_id],
      ...(lost ? { notRestorable: await lost(context, params) } : {}),
    }),
    summary: (params, _result, before) =>
      describe(params, before.network_users?.[params.user_id]?.username ?? `user ${params.user_id}`),
  };
}
