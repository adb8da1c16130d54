import type { AccountRolesDone, UndoState } from './types.js';

/**
 * A bulk account write journalled from what its route did (#59): only the accounts it changed
 * (or may have: an answer lost), each with the roles the route saw and set at the moment of the
 * change. An account skipped because another writer changed it, or refused, is not in the entry,
 * so an undo never takes back another writer's change. Their other fields are the state the
 * write was planned on, before and after alike: an undo puts back the roles only. `overReads`
 * (import-users, whose updates also change other fields): the accounts read before and after the
 * call stay, and only these accounts' roles are the route's.
 */
export function journalAccountsDone(before: UndoState, after: UndoState, done: Record<string, AccountRolesDone>, overReads = false): void {
  const users = before.users ?? {};
  // Over reads (import-users): the other accounts and fields stay as read; only these roles are the route's.
  const read = overReads ? (after.users ?? {}) : {};
  before.users = overReads ? { ...users } : {};
  after.users = { ...read };
  for (const [id, roles] of Object.entries(done)) {
    const base = users[id];
    if (!base) continue;
    before.users[id] = { ...base, roles: [...roles.before].sort() };
    after.users[id] = { ...(read[id] ?? base), roles: [...roles.after].sort() };
  }
}
