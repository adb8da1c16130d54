import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { callOkIn, testSite, unique, withoutCompanion, wp } from '../../helpers/site.js';
import { makeAppPassword, wpPhp } from './helpers.js';

/**
 * Issue #59, finding 8: the undo of import-users deleted accounts that had since been given a
 * capability of their own or an application password, without naming them, and left their
 * comments pointing at a deleted account. An account's own grants, application passwords and
 * comments are changes since, like posts and roles: the undo keeps such an account and names
 * what it has; with force it deletes it, and its comments keep their author's name but point at
 * no account. Read back from WordPress (PHP where REST does not show it).
 */

async function importAccounts(n: number) {
  const prefix = unique('since').replace(/[^a-z0-9]/gi, '').toLowerCase();
  const csv = ['user_login,user_email', ...Array.from({ length: n }, (_, i) => `${prefix}_${i},${prefix}_${i}@example.org`)].join('\n');
  const journal = memoryJournal();
  const context = createContext(testSite(), { journal });
  await callOkIn(context, 'import-users', { csv });
  const made = await wp().get<Array<{ id: number; username: string }>>('/wp/v2/users', { search: `${prefix}_`, context: 'edit', _fields: 'id,username', per_page: 100, orderby: 'id' });
  expect(made).toHaveLength(n);
  return { journal, ids: made.map((u) => u.id) };
}

/** A comment on the first post, written as account `id` (as wp-comments-post.php would). */
async function commentBy(id: number): Promise<number> {
  return Number(await wpPhp(`$p = get_posts(['numberposts' => 1, 'post_status' => 'publish']); $u = get_userdata(${id});
    echo wp_insert_comment(['comment_post_ID' => $p[0]->ID, 'user_id' => ${id}, 'comment_author' => $u->display_name, 'comment_author_email' => $u->user_email, 'comment_content' => 'Hello from ${id}', 'comment_approved' => 1]);`));
}

const exists = async (id: number) => (await wpPhp(`echo get_userdata(${id}) ? 'yes' : 'no';`)) === 'yes';
const commentUser = async (comment: number) => JSON.parse(await wpPhp(`$c = get_comment(${comment}); echo json_encode([(int) $c->user_id, $c->comment_author]);`)) as [number, string];

describe('undo of import-users: accounts in use since are kept and named (#59.8)', { timeout: 180_000 }, () => {
  it('an own capability, an application password, a comment: each kept and named; with force deleted, comments unlinked', async () => {
    const { journal, ids } = await importAccounts(5);
    const [granted, withPassword, commenter] = ids as [number, number, number];
    await wpPhp(`get_userdata(${granted})->add_cap('upload_files');`);
    await makeAppPassword(withPassword);
    const comment = await commentBy(commenter);
    const context = createContext(testSite());

    const report = await undoChange(context, journal);
    const reasons = Object.fromEntries(report.conflicts.map((c) => [Number(/user (\d+)/.exec(c.item)?.[1]), c.reason]));
    expect(Object.keys(reasons).map(Number).sort()).toEqual([granted, withPassword, commenter].sort());
    expect(reasons[granted]).toContain('capabilities of its own (upload_files)');
    expect(reasons[withPassword]).toContain('1 application password(s)');
    expect(reasons[commenter]).toContain('1 comment(s)');
    for (const id of [granted, withPassword, commenter]) expect(await exists(id), `user ${id} kept`).toBe(true);
    for (const id of ids.slice(3)) expect(await exists(id), `user ${id} deleted`).toBe(false);
    expect((await commentUser(comment))[0]).toBe(commenter);

    // With force they go too; the comment stays, with its author's name, pointing at no account.
    const forced = await undoChange(context, journal, { force: true });
    expect(forced.conflicts).toEqual([]);
    for (const id of ids) expect(await exists(id)).toBe(false);
    const [user, name] = await commentUser(comment);
    expect(user).toBe(0);
    expect(name).toMatch(/since/);
    await wpPhp(`wp_delete_comment(${comment}, true);`);
  });

  it('without the companion plugin’s bulk route the undo reads the same from REST and keeps them too', async () => {
    const { journal, ids } = await importAccounts(3);
    const [withPassword, commenter] = ids as [number, number];
    await makeAppPassword(withPassword);
    const comment = await commentBy(commenter);
    const report = await undoChange(withoutCompanion(createContext(testSite())), journal);
    expect(report.conflicts.map((c) => c.reason)).toEqual([expect.stringContaining('1 application password(s)'), expect.stringContaining('1 comment(s)')]);
    expect(await exists(withPassword)).toBe(true);
    expect(await exists(commenter)).toBe(true);
    expect(await exists(ids[2]!)).toBe(false);
    await wpPhp(`wp_delete_comment(${comment}, true); require_once ABSPATH . 'wp-admin/includes/user.php'; wp_delete_user(${withPassword}); wp_delete_user(${commenter});`);
  });
});
