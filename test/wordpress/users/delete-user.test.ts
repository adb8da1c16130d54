import { afterAll, describe, expect, it } from 'vitest';
import { type CallReview, findTool, reviewCall } from '../../../src/call/index.js';
import { testContext, unique, wp } from '../../helpers/site.js';
import { expectNoSecretsLeaked, makeUser, runError, runOk, wpPhp } from './helpers.js';

afterAll(() => expectNoSecretsLeaked());

/** Posts of every status, a trashed one, a page and a book (custom type), all by `author`. */
async function authoredContent(author: number): Promise<number[]> {
  const title = unique('Offboard');
  const make = (path: string, body: Record<string, unknown>) =>
    wp()
      .post<{ id: number }>(path, { title, author, ...body })
      .then((p) => p.id);
  const ids = [
    await make('/wp/v2/posts', { status: 'publish' }),
    await make('/wp/v2/posts', { status: 'draft' }),
    await make('/wp/v2/posts', { status: 'pending' }),
    await make('/wp/v2/posts', { status: 'private' }),
    await make('/wp/v2/posts', { status: 'future', date: '2035-01-01T10:00:00' }),
    await make('/wp/v2/pages', { status: 'publish' }),
    await make('/wp/v2/books', { status: 'draft' }),
  ];
  const trashed = await make('/wp/v2/posts', { status: 'publish' });
  await wp().delete(`/wp/v2/posts/${trashed}`);
  return [...ids, trashed];
}

/** post id → [author, status] straight from the database; null when the post is gone. */
async function authors(ids: number[]): Promise<Record<string, [number, string] | null>> {
  const out = await wpPhp(
    `$r = []; foreach ([${ids.join(',')}] as $id) { $p = get_post($id); $r[$id] = $p ? [(int) $p->post_author, $p->post_status] : null; } echo json_encode($r);`,
  );
  return JSON.parse(out);
}
/** A link (Links Manager, wp_links) owned by `owner`: wp_delete_user() reassigns or deletes those too. */
async function ownedLink(owner: number): Promise<number> {
  const id = await wpPhp(
    `require_once ABSPATH . 'wp-admin/includes/bookmark.php'; echo wp_insert_link(['link_url' => 'https://example.org/', 'link_name' => 'Offboard link', 'link_owner' => ${owner}]);`,
  );
  return Number(id.trim());
}
/** The link's owner, or null when the link is gone. */
async function linkOwner(id: number): Promise<number | null> {
  const owner = (await wpPhp(`global $wpdb; echo $wpdb->get_var("SELECT link_owner FROM $wpdb->links WHERE link_id = ${id}") ?? 'none';`)).trim();
  return owner === 'none' ? null : Number(owner);
}
const exists = async (id: number) => (await wpPhp(`echo get_userdata(${id}) ? 'yes' : 'no';`)).trim() === 'yes';

describe('delete-user', () => {
  it('gives every post (all statuses, trash, pages, custom types) to reassign_to and deletes the account', async () => {
    const alice = await makeUser({ prefix: 'alice', roles: ['author'] });
    const bob = await makeUser({ prefix: 'bob', roles: ['editor'] });
    const ids = await authoredContent(alice.id);
    const link = await ownedLink(alice.id);

    const review = (await reviewCall(findTool('delete-user')!, testContext(), { id: alice.id, reassign_to: bob.id })) as CallReview;
    expect(review.approval).toBe('required');
    expect(review.summary).toContain(`delete ${alice.username}'s account (roles: author)`);
    expect(review.summary).toContain(`give 8 item(s): `);
    expect(review.summary).toMatch(/Posts 6 \(.*trash 1/);
    expect(review.summary).toContain('Pages 1 (publish 1)');
    expect(review.summary).toContain('Books 1 (draft 1)');
    expect(review.summary).toContain(`and 1 link(s) to ${bob.username}; this cannot be undone`);

    const result = await runOk('delete-user', { id: alice.id, reassign_to: bob.id });
    expect(result).toMatchObject({
      id: alice.id,
      username: alice.username,
      deleted: true,
      reassigned_to: { id: bob.id, username: bob.username },
      posts_reassigned: { post: 6, page: 1, book: 1 },
      links: 1,
      note: expect.stringContaining('cannot be undone'),
    });
    const after = await authors(ids);
    for (const id of ids) expect(after[id]?.[0], `post ${id}`).toBe(bob.id);
    expect(after[ids.at(-1)!]?.[1]).toBe('trash');
    expect(await linkOwner(link)).toBe(bob.id);
    expect(await exists(alice.id)).toBe(false);
  });

  it('with delete_content and reassign_to null, deletes the content as wp-admin does: posts and pages to the Trash, the rest for good', async () => {
    const carol = await makeUser({ prefix: 'carol', roles: ['author'] });
    const ids = await authoredContent(carol.id);
    const link = await ownedLink(carol.id);
    const review = (await reviewCall(findTool('delete-user')!, testContext(), {
      id: carol.id,
      reassign_to: null,
      delete_content: true,
    })) as CallReview;
    expect(review.approval).toBe('required');
    expect(review.summary).toContain('to the Trash: post 5, page 1 (emptied after 30 days, authorless)');
    expect(review.summary).toContain('DELETED for good: post 1, book 1 and 1 link(s)');

    const result = await runOk('delete-user', { id: carol.id, reassign_to: null, delete_content: true });
    expect(result).toMatchObject({
      deleted: true,
      posts_trashed: { post: 5, page: 1 },
      posts_deleted: { post: 1, book: 1 },
    });
    const after = await authors(ids);
    // Posts and pages: in the Trash (wp_delete_post() without force); the book and the trashed post: gone.
    expect(ids.slice(0, 6).map((id) => after[id]?.[1])).toEqual(Array(6).fill('trash'));
    expect([after[ids[6]!], after[ids[7]!]]).toEqual([null, null]);
    expect(await linkOwner(link)).toBe(null);
    expect(await exists(carol.id)).toBe(false);
  });

  it('refuses what would lose content or lock the toolkit out; nothing changes', async () => {
    const dave = await makeUser({ prefix: 'dave', roles: ['author'] });
    const reader = await makeUser({ prefix: 'reader' });
    const [post] = await authoredContent(dave.id);
    const me = await wp().get<{ id: number }>('/wp/v2/users/me');

    expect(await runError('delete-user', { id: dave.id, reassign_to: null })).toMatchObject({
      code: 'reassign_required',
    });
    expect(await runError('delete-user', { id: dave.id })).toMatchObject({ code: 'reassign_required' });
    expect(await runError('delete-user', { id: dave.id, delete_content: false })).toMatchObject({
      code: 'reassign_required',
    });
    expect(await runError('delete-user', { id: dave.id, reassign_to: reader.id, delete_content: true })).toMatchObject({
      code: 'conflicting_params',
    });
    expect(await runError('delete-user', { id: dave.id, reassign_to: dave.id })).toMatchObject({
      code: 'invalid_reassign',
    });
    expect(await runError('delete-user', { id: dave.id, reassign_to: reader.id })).toMatchObject({
      code: 'invalid_reassign',
      message: expect.stringContaining('edit_posts'),
    });
    expect(await runError('delete-user', { id: dave.id, reassign_to: 999999 })).toMatchObject({
      code: 'invalid_reassign',
    });
    expect(await runError('delete-user', { id: me.id, reassign_to: dave.id })).toMatchObject({
      code: 'cannot_delete_self',
    });
    expect(await runError('delete-user', { id: 999999, reassign_to: dave.id })).toMatchObject({
      code: 'user_not_found',
    });

    // The review finds the same refusals: no one is asked about a call that would fail.
    const tool = findTool('delete-user')!;
    expect(await reviewCall(tool, testContext(), { id: dave.id, reassign_to: reader.id })).toMatchObject({
      approval: 'fails',
      error: { code: 'invalid_reassign' },
    });
    expect(await reviewCall(tool, testContext(), { id: me.id, reassign_to: dave.id })).toMatchObject({
      approval: 'fails',
      error: { code: 'cannot_delete_self' },
    });

    expect(await exists(dave.id)).toBe(true);
    expect(await exists(me.id)).toBe(true);
    expect((await authors([post!]))[post!]?.[0]).toBe(dave.id);
  });

  it('the plugin refuses the same through core’s route, whoever calls it', async () => {
    const erin = await makeUser({ prefix: 'erin', roles: ['author'] });
    const reader = await makeUser({ prefix: 'reader' });
    const me = await wp().get<{ id: number }>('/wp/v2/users/me');
    const refusal = (path: string, query: Record<string, number | boolean>) =>
      wp()
        .delete(path, query)
        .then(
          () => 'deleted',
          (err: { code?: string }) => err.code,
        );
    expect(await refusal(`/wp/v2/users/${erin.id}`, { force: true, reassign: reader.id })).toBe(
      'cms_admin_invalid_reassign',
    );
    expect(await refusal(`/wp/v2/users/${me.id}`, { force: true, reassign: erin.id })).toBe(
      'cms_admin_cannot_delete_self',
    );
    expect(await refusal('/wp/v2/users/me', { force: true, reassign: erin.id })).toBe('cms_admin_cannot_delete_self');
    expect(await exists(erin.id)).toBe(true);
  });

  it('refuses the last enabled administrator (here: the toolkit’s own account, once the others are disabled)', async () => {
    const me = await wp().get<{ id: number }>('/wp/v2/users/me');
    const heir = await makeUser({ prefix: 'heir', roles: ['editor'] });
    const admins: number[] = JSON.parse(await wpPhp('echo json_encode(cms_admin_enabled_administrators());'));
    const others = admins.filter((id) => id !== me.id);
    try {
      await wpPhp(
        `foreach ([${others.join(',')}] as $id) { update_user_meta($id, '_cms_admin_disabled', ['reason' => 'last-admin test', 'disabled_at' => gmdate('c'), 'disabled_by' => 0]); }`,
      );
      expect(await runError('delete-user', { id: me.id, reassign_to: heir.id })).toMatchObject({
        code: 'last_administrator',
        message: expect.stringContaining('leave the site without one'),
      });
      expect(await exists(me.id)).toBe(true);
    } finally {
      await wpPhp(`foreach ([${others.join(',')}] as $id) { delete_user_meta($id, '_cms_admin_disabled'); }`);
    }
  });
});
