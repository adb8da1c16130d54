import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { describeUndo } from '../../src/cli/undo/undo-approve.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { testMuPlugin } from '../helpers/mu-plugin.js';
import { makeUser, readUser, wpPhp } from './users/helpers.js';

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
      'post 1: deleted for good with the account, cannot be restored',
      '6 of 6 trashed post(s) restored from the Trash',
    ]);
    expect(describeUndo(report)).toContain(
      'a deleted account cannot be recreated; post 1: deleted for good with the account, cannot be restored; 6 of 6 trashed post(s) restored from the Trash',
    );
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
    // The heir named as the site shows them (#52.11), not "user N" alone.
    const { name } = await wp().get<{ name: string }>(`/wp/v2/users/${heir.id}`);
    expect(entry).toMatchObject({ reversible: false, summary: `deleted user ${user.id} (${user.username}), posts to user ${heir.id} (${name})` });
    await expect(undoChange(context, journal)).rejects.toMatchObject({ code: 'change_not_reversible' });
  });
});

/**
 * Issue #47, finding 4: wp_trash_post trashes a post or page in any status, a registered custom
 * one too, but the journal listed only REST's usual five statuses: its dry run counted the
 * custom ones, the undo answered "2 of 2 trashed post(s) restored" and left them in the Trash.
 * A post type hidden from REST is deleted for good with the account: the undo names it, never
 * counts it as restored.
 */
describe('undo of delete-user with delete_content, custom statuses and a type hidden from REST', () => {
  const muPlugin = testMuPlugin('cms-test-loss47.php');
  afterAll(() => muPlugin.remove());

  it('journals and restores the posts in a custom status; names what was deleted for good', async () => {
    await muPlugin.install(`<?php
// Test-only (test/wordpress/undo-delete-user.test.ts): a custom status and a type REST does not show.
add_action('init', static function (): void {
    register_post_status('loss47_archived', ['label' => 'Archived', 'public' => false, 'exclude_from_search' => true, 'show_in_admin_all_list' => false]);
    register_post_type('ledger47', ['label' => 'Ledger', 'public' => false, 'show_in_rest' => false, 'delete_with_user' => true]);
});
`);
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const user = await makeUser({ prefix: 'undo_loss47', roles: ['author'] });
    const made = JSON.parse(
      await wpPhp(`$ids = []; foreach ([['post', 'publish'], ['post', 'loss47_archived'], ['page', 'loss47_archived'], ['ledger47', 'publish']] as [$type, $status]) {
        $ids[] = wp_insert_post(['post_title' => 'Loss47 ' . $type . ' ' . $status, 'post_name' => 'loss47-' . $type . '-' . str_replace('_', '-', $status) . '-${user.id}', 'post_type' => $type, 'post_status' => $status, 'post_author' => ${user.id}], true); }
        echo json_encode($ids);`),
    ) as number[];
    const [published, archivedPost, archivedPage, ledger] = made as [number, number, number, number];
    const state = async () =>
      JSON.parse(
        await wpPhp(`$out = []; foreach ([${made.join(',')}] as $id) { $p = get_post($id); $out[$id] = $p ? $p->post_type . '/' . $p->post_status . '/' . $p->post_name : 'gone'; } echo json_encode($out);`),
      ) as Record<string, string>;
    const before = await state();

    const result = await callOkIn(context, 'delete-user', { id: user.id, reassign_to: null, delete_content: true });
    expect(result.posts_trashed).toEqual({ post: 2, page: 1 });
    expect(result.posts_deleted).toEqual({ ledger47: 1 });
    const [entry] = await journal.entries();
    expect(entry!.summary).toContain('3 post(s) moved to the Trash');
    expect(entry!.summary).not.toContain('not restorable');

    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(report.notes).toEqual([
      `user ${user.id} (${user.username}): a deleted account cannot be recreated`,
      'ledger47 1: deleted for good with the account, cannot be restored',
      '3 of 3 trashed post(s) restored from the Trash',
    ]);
    // Read back by PHP (REST lists none of the custom status by default): each as it was.
    expect(await state()).toEqual({ ...before, [ledger]: 'gone' });
    expect(before[archivedPost]).toMatch(/^post\/loss47_archived\//);
    expect(before[archivedPage]).toMatch(/^page\/loss47_archived\//);
    expect(before[published]).toMatch(/^post\/publish\//);
  });
});
