import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { describeUndo } from '../../src/cli/undo-approve.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { makeUser, readUser } from './users/helpers.js';

/**
 * Issue #34.7: delete-user with delete_content trashed 19 posts; the journal said only "deleted
 * user 10" and undo only that an account cannot be recreated. The entry now names the trashed
 * posts (ids and count), and the undo takes them out of the Trash with their status and slug
 * as before, saying the account stays deleted.
 */

type Post = { id: number; status: string; slug: string };

async function authored(author: number) {
  const title = unique('Offboard undo');
  const make = (route: string, body: Record<string, unknown>) =>
    wp().post<Post>(route, { title, author, ...body }, { context: 'edit', _fields: 'id,status,slug' });
  const live = [
    await make('/wp/v2/posts', { status: 'publish' }),
    await make('/wp/v2/posts', { status: 'draft', slug: unique('draft-slug').replace(/\W+/g, '-').toLowerCase() }),
    await make('/wp/v2/posts', { status: 'pending' }),
    await make('/wp/v2/posts', { status: 'private' }),
    await make('/wp/v2/posts', { status: 'future', date: '2035-01-01T10:00:00' }),
    await make('/wp/v2/pages', { status: 'publish' }),
  ];
  // Already in the Trash before the delete: wp_delete_post deletes it for good; no undo brings it back.
  const trashed = await make('/wp/v2/posts', { status: 'publish' });
  await wp().delete(`/wp/v2/posts/${trashed.id}`);
  return { live, trashed: trashed.id };
}

const read = (route: string, id: number) =>
  wp().get<Post>(`${route}/${id}`, { context: 'edit', _fields: 'id,status,slug' });

describe('undo of delete-user with delete_content', () => {
  it('the entry names the trashed posts; undo takes them out of the Trash as they were and says the account stays deleted', async () => {
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const user = await makeUser({ prefix: 'undo_offboard', roles: ['author'] });
    const { live, trashed } = await authored(user.id);
    const routeOf = (i: number) => (i === 5 ? '/wp/v2/pages' : '/wp/v2/posts');

    const result = await callOkIn(context, 'delete-user', { id: user.id, reassign_to: null, delete_content: true });
    expect(result.posts_trashed).toEqual({ post: 5, page: 1 });
    for (const [i, post] of live.entries()) expect((await read(routeOf(i), post.id)).status).toBe('trash');

    const [entry] = await journal.entries();
    expect(entry).toMatchObject({ tool: 'delete-user', reversible: true });
    expect(entry!.summary).toContain(`deleted user ${user.id} (${user.username}); 6 post(s) moved to the Trash: `);
    for (const post of live) expect(entry!.summary).toContain(String(post.id));
    expect(entry!.summary).not.toContain(String(trashed));

    const dry = await undoChange(context, journal, { dry_run: true });
    expect(dry.restored).toHaveLength(6);
    expect((await read('/wp/v2/posts', live[0]!.id)).status).toBe('trash');

    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(report.restored).toHaveLength(6);
    expect(report.notes).toEqual([
      `user ${user.id} (${user.username}): a deleted account cannot be recreated`,
      '6 of 6 trashed post(s) restored from the Trash',
    ]);
    expect(describeUndo(report)).toContain('a deleted account cannot be recreated; 6 of 6 trashed post(s) restored from the Trash');
    for (const [i, post] of live.entries()) expect(await read(routeOf(i), post.id)).toEqual(post);
    await expect(read('/wp/v2/posts', trashed)).rejects.toMatchObject({ status: 404 });
    await expect(readUser(user.id)).rejects.toMatchObject({ status: 404 });

    // Done is done: a second undo is refused, and the undo itself says a redo will not trash them again.
    await expect(undoChange(context, journal, { change_id: entry!.change_id })).rejects.toMatchObject({
      code: 'already_undone',
    });
    expect((await journal.entries()).at(-1)).toMatchObject({ reversible: false, why_not: expect.stringContaining('out of the Trash') });
  });

  it('delete-user giving the posts to another account stays not reversible', async () => {
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const [user, heir] = [await makeUser({ prefix: 'undo_gone', roles: ['author'] }), await makeUser({ prefix: 'undo_heir', roles: ['author'] })];
    await callOkIn(context, 'delete-user', { id: user.id, reassign_to: heir.id });
    const [entry] = await journal.entries();
    expect(entry).toMatchObject({ reversible: false, summary: `deleted user ${user.id}, posts to ${heir.id}` });
    await expect(undoChange(context, journal)).rejects.toMatchObject({ code: 'change_not_reversible' });
  });
});
