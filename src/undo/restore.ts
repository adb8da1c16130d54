import type { ToolContext } from '../tools/define-tool.js';
import { restorePostChanges } from './restore-post-changes.js';
import { restorePosts } from './restore-posts.js';
import { deleteTerm, restoreTerms } from './restore-terms.js';
import { restoreTrashed } from './restore-trash.js';
import { restoreUsers } from './restore-users.js';
import { restoreNetworkUsers } from './restore-network.js';
import { restoreRoles, restoreUserCaps } from './restore-roles.js';
import { readState, type UndoState } from './state.js';
import type { RestoreOptions, RestoreOutcome } from './types.js';

/**
 * Makes the site's objects in `target` as they are there, where they are still as `expected`
 * (the state the change left): an object changed since is a conflict, left alone unless
 * `force`. Every step compares the site with the target first, so running it again after a
 * fault does only what is left. Order: terms recreated (parents first) and changed, posts'
 * terms (bulk, src/tools/taxonomy/change-post-terms.ts; a delta reversed, restore-post-changes.ts),
 * then terms to delete, then roles (restore-roles.ts: recreated before users, deleted after), users, then posts taken out of the Trash (restore-trash.ts).
 */
export async function restoreState(
  context: ToolContext,
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
): Promise<RestoreOutcome> {
  const { client } = context;
  // A second taxonomy (migrate-terms' source) first: its terms back before the target's go.
  const also = target.also || expected.also ? await restoreState(context, expected.also ?? {}, target.also ?? {}, options) : undefined;
  const taxonomy = target.taxonomy ?? expected.taxonomy;
  const ids = (record?: Record<string, unknown>) => Object.keys(record ?? {}).map(Number);
  const current = await readState(client, {
    taxonomy,
    terms: [...new Set([...ids(target.terms), ...ids(expected.terms)])],
    posts: [...new Set([...ids(target.posts), ...ids(expected.post_changes)])],
    users: ids(target.users),
    networkUsers: ids(target.network_users),
    roles: Object.keys(target.roles ?? {}),
    userCaps: ids(target.user_caps),
  });
  const out: RestoreOutcome = {
    restored: [],
    conflicts: [],
    skipped: [],
    current,
    result: structuredClone(current),
    idMap: {},
  };
  const toDelete: number[] = [];
  if (taxonomy && target.terms) await restoreTerms(client, taxonomy, expected, target, options, out, toDelete);
  // Entries since #34.4 keep each post's own change (a delta); older ones whole lists.
  if (taxonomy && expected.post_changes)
    await restorePostChanges(client, taxonomy, expected.post_changes, target, options, out);
  else if (taxonomy && target.posts) await restorePosts(client, taxonomy, expected, target, options, out);
  if (taxonomy) for (const id of toDelete) await deleteTerm(client, taxonomy, id, options, out);
  // A deleted role exists again before its accounts get it back; a created one goes after they lost it.
  if (target.roles) await restoreRoles(client, 'put', expected, target, options, out);
  if (target.users) await restoreUsers(client, expected, target, options, out);
  if (target.user_caps) await restoreUserCaps(client, expected, target, options, out);
  if (target.roles) await restoreRoles(client, 'delete', expected, target, options, out);
  if (target.trashed) await restoreTrashed(client, target, options, out);
  if (target.network_users) await restoreNetworkUsers(client, expected, target, options, out);
  if (also) mergeAlso(out, also, options);
  return out;
}

/** The second taxonomy's outcome in the call's: its items first, its states under `also`. */
function mergeAlso(out: RestoreOutcome, also: RestoreOutcome, options: RestoreOptions): void {
  out.restored.unshift(...also.restored);
  out.conflicts.unshift(...also.conflicts);
  out.skipped.unshift(...also.skipped);
  if (also.failed) out.failed = true;
  Object.assign(out.idMap, also.idMap);
  out.current.also = also.current;
  const result = { ...also.result };
  // A dry run keeps the planned posts: the undo's question counts them (changes/undo-review.ts).
  if (also.postChanges && !options.dryRun) {
    delete result.posts;
    result.post_changes = also.postChanges;
  }
  out.result.also = result;
}
