import type { AccountRolesDone, UndoState } from './types.js';

/**
 * A bulk account write journalled from what its route did (#59): only the accounts it changed
 * (or may have: an answer lost), each with the roles the route saw and set at the moment of the
 * change. An account skipped because another writer changed it, or refused, is not in the entry,
 * so an undo never takes back another writer's change. Their other fields are the state the
 * write was planned on, before and after alike: an undo puts back the roles only.
 */
export function journalAccountsDone(before: UndoState, after: UndoState, done: Record<string, AccountRolesDone>): void {
  const users = before.users ?? {};
  before.users = {};
  after.users = {};
  for (const [id, roles] of Object.entries(done)) {
    const base = users[id];
    if (!base) continue;
    before.users[id] = { ...base, roles: [...roles.before].sort() };
    after.users[id] = { ...base, roles: [...roles.after].sort() };
  }
}
