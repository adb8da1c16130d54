import type { ToolUndo } from '../define-tool.js';
import type { UndoState } from '../../undo/state.js';

/**
 * How the user tools' calls are journalled for undo (src/undo/): the user's email, name, bio,
 * roles and disabled state, read before and after the call; the engine restores them.
 */
type P = Record<string, any>;

const username = (before: UndoState, id: number) => before.users?.[id]?.username ?? `user ${id}`;

/** update-user, set-user-role, disable-user, enable-user: the user `id` (or `user_id`) as it was. */
export function userUndo(describe: (params: P, name: string, before: UndoState) => string): ToolUndo<P> {
  return {
    scope: async (_context, params) => ({ users: [params.id] }),
    summary: (params, _result, before) => describe(params, username(before, params.id), before),
  };
}

export const createUserUndo: ToolUndo<P> = {
  created: (result: { id: number }) => ({ users: [result.id] }),
  summary: (params, result: { id: number; roles?: string[] }) =>
    `created user ${result.id} ${params.username}${result.roles?.length ? ` (${result.roles.join(', ')})` : ''}`,
};

/** A change that cannot be taken back: journalled, marked so, with the reason. */
export function irreversible(why: string, describe: (params: P) => string): ToolUndo<P> {
  return { irreversible: () => why, summary: (params) => describe(params) };
}
