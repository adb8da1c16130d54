import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { findTool, reviewCall } from '../../../src/call/index.js';
import { callOkIn, testContext, testSite, wp } from '../../helpers/site.js';
import { expectNoSecretsLeaked, makeAppPassword, makeUser, readUser, runError, runIn, runOk, wpPhp } from './helpers.js';

async function idsWithRole(role: string): Promise<number[]> {
  const users = await wp().all<{ id: number }>('/wp/v2/users', { roles: role, context: 'edit', _fields: 'id' });
  return users.map((u) => u.id).sort((a, b) => a - b);
}

describe('set-users-role', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('all authors become contributors, one question, and one undo makes them authors again', async () => {
    const made = [await makeUser({ roles: ['author'] }), await makeUser({ roles: ['author'] })];
    const authors = await idsWithRole('author');
    expect(authors).toEqual(expect.arrayContaining(made.map((u) => u.id)));
    const contributors = await idsWithRole('contributor');
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const params = { from_role: 'author', to_role: 'contributor' };

    const review = await reviewCall(findTool('set-users-role')!, context, params);
    expect(review).toMatchObject({ approval: 'required', summary: expect.stringContaining(`give ${authors.length} account(s) (every author) the role contributor`) });
    const dry = await callOkIn(context, 'set-users-role', { ...params, dry_run: true });
    expect(dry).toMatchObject({ dry_run: true, counts: { change: authors.length } });
    expect(await idsWithRole('author')).toEqual(authors);

    const result = await callOkIn(context, 'set-users-role', params);
    expect(result.counts).toMatchObject({ changed: authors.length, refused: 0, failed: 0 });
    expect(result.accounts).toContainEqual(expect.objectContaining({ id: made[0]!.id, result: 'changed', was: 'author' }));
    expect(await idsWithRole('author')).toEqual([]);
    expect(await idsWithRole('contributor')).toEqual([...contributors, ...authors].sort((a, b) => a - b));

    const entries = await journal.entries();
    expect(entries).toHaveLength(1);
    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(await idsWithRole('author')).toEqual(authors);
    expect(await idsWithRole('contributor')).toEqual(contributors);
  });

  it('names the powers an account gains in plain words, refuses the caller’s own account, reports each', async () => {
    const me = await testContext().client.connect();
    const user = await makeUser({ roles: ['subscriber'] });
    const params = { user_ids: [user.id, me.id], to_role: 'administrator' };
    const review = (await reviewCall(findTool('set-users-role')!, testContext(), params)) as { approval: string; summary: string };
    expect(review.approval).toBe('required');
    expect(review.summary).toContain(`${user.username}: change every site setting (manage_options)`);
    expect(review.summary).toContain('1 already administrator');

    const result = await runOk('set-users-role', { user_ids: [user.id, me.id], to_role: 'editor' });
    expect(result.counts).toMatchObject({ changed: 1, refused: 1 });
    expect(result.accounts).toContainEqual(
      expect.objectContaining({ id: me.id, result: 'refused', reason: 'an account cannot change its own role' }),
    );
    expect((await readUser(user.id)).roles).toEqual(['editor']);
    expect((await readUser(me.id)).roles).toEqual(['administrator']);
  });

  it('refuses bad input before anything changes', async () => {
    const user = await makeUser({ roles: ['author'] });
    expect(await runError('set-users-role', { to_role: 'editor' })).toMatchObject({ code: 'invalid_params' });
    expect(await runError('set-users-role', { user_ids: [user.id, 987654], to_role: 'editor' })).toMatchObject({ code: 'user_not_found' });
    expect(await runError('set-users-role', { user_ids: [user.id], to_role: 'wizard' })).toMatchObject({ code: 'unknown_role' });
    expect((await readUser(user.id)).roles).toEqual(['author']);
  });

  it('an account that may promote users gives no role above its own and changes no stronger account', async () => {
    const role = 'cms_test_promoter';
    await wpPhp(
      `remove_role('${role}'); add_role('${role}', 'Promoter', ['read' => true, 'edit_posts' => true, 'delete_posts' => true, 'list_users' => true, 'edit_users' => true, 'promote_users' => true]);`,
    );
    const promoter = await makeUser({ prefix: 'promoter', roles: [role] });
    const context = createContext({ url: testSite().url, username: promoter.username, appPassword: await makeAppPassword(promoter.id) });
    const [admin, sub] = [await makeUser({ roles: ['administrator'] }), await makeUser({ roles: ['subscriber'] })];
    try {
      const above = await runIn(context, 'set-users-role', { user_ids: [sub.id], to_role: 'administrator' });
      expect(above).toMatchObject({ ok: false, error: { code: 'role_stronger_than_caller' } });
      const mixed = await runIn(context, 'set-users-role', { user_ids: [admin.id, sub.id], to_role: 'contributor' });
      if (!mixed.ok) throw new Error(JSON.stringify(mixed.error));
      expect((mixed.result as any).counts).toMatchObject({ changed: 1, refused: 1 });
      expect((mixed.result as any).accounts).toContainEqual(
        expect.objectContaining({ id: admin.id, result: 'refused', reason: expect.stringMatching(/holds capabilities your/) }),
      );
      expect((await readUser(admin.id)).roles).toEqual(['administrator']);
      expect((await readUser(sub.id)).roles).toEqual(['contributor']);
    } finally {
      for (const id of [promoter.id, admin.id, sub.id]) await wp().delete(`/wp/v2/users/${id}`, { force: true, reassign: 1 });
      await wpPhp(`remove_role('${role}');`);
    }
  });
});
