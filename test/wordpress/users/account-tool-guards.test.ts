import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { type ToolContext, findTool, reviewCall } from '../../../src/call/index.js';
import { testSite, wp } from '../../helpers/site.js';
import {
  appPasswordStatus,
  expectNoSecretsLeaked,
  formLogin,
  makeAppPassword,
  makeUser,
  runIn,
  wpPhp,
} from './helpers.js';

/**
 * The account tools' guards with a custom "user manager" role that may list, edit and delete
 * users but is not an administrator: the tools refuse first, the plugin refuses the same when
 * its routes are called directly.
 */
const ROLE = 'cms_test_account_manager';
let manager: ToolContext;
let managerId: number;
let managerUsername: string;
let managerApp: string;

beforeAll(async () => {
  await wpPhp(
    `remove_role('${ROLE}'); add_role('${ROLE}', 'Account manager', ['read' => true, 'list_users' => true, 'edit_users' => true, 'delete_users' => true]);`,
  );
  const user = await makeUser({ prefix: 'acctmgr', roles: [ROLE] });
  managerId = user.id;
  managerUsername = user.username;
  managerApp = await makeAppPassword(user.id);
  manager = createContext({ url: testSite().url, username: user.username, appPassword: managerApp });
});
afterAll(() => expectNoSecretsLeaked());

const exists = async (id: number) => (await wpPhp(`echo get_userdata(${id}) ? 'yes' : 'no';`)).trim() === 'yes';
const sessions = async (id: number) =>
  Number((await wpPhp(`echo count(WP_Session_Tokens::get_instance(${id})->get_all());`)).trim());
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'done',
    (err: { code?: string }) => err.code,
  );

describe('an account manager (list/edit/delete users, not an administrator)', () => {
  it('cannot delete, log out, or revoke or list the passwords and sessions of an administrator', async () => {
    const admin = await makeUser({ prefix: 'admin', roles: ['administrator'] });
    const adminApp = await makeAppPassword(admin.id);
    expect((await formLogin(admin.username, admin.password)).ok).toBe(true);
    const heir = await makeUser({ prefix: 'heir', roles: ['author'] });

    const calls: Array<[string, Record<string, unknown>]> = [
      ['delete-user', { id: admin.id, reassign_to: heir.id }],
      ['log-out-user', { user_id: admin.id }],
      ['revoke-app-passwords', { user_id: admin.id }],
      ['list-app-passwords', { user_id: admin.id }],
      ['list-user-sessions', { user_id: admin.id }],
    ];
    for (const [tool, params] of calls) {
      const outcome = await runIn(manager, tool, params);
      expect(outcome, tool).toMatchObject({
        ok: false,
        error: { code: 'account_stronger_than_caller', message: expect.stringContaining('manage_options') },
      });
    }
    expect(await exists(admin.id)).toBe(true);
    expect(await sessions(admin.id)).toBe(1);
    expect((await appPasswordStatus(admin.username, adminApp)).status).toBe(200);

    // The plugin's own routes and its guard on core's delete refuse the same, called directly.
    const client = manager.client;
    expect(await refusal(client.delete(`/wp/v2/users/${admin.id}`, { force: true, reassign: heir.id }))).toBe(
      'cms_admin_account_stronger_than_caller',
    );
    expect(await refusal(client.delete(`/cms-admin/v1/users/${admin.id}/sessions`))).toBe(
      'cms_admin_account_stronger_than_caller',
    );
    expect(await refusal(client.get(`/cms-admin/v1/users/${admin.id}/sessions`))).toBe(
      'cms_admin_account_stronger_than_caller',
    );
    // Core's application-password routes: WordPress itself refuses (edit_user, capability-guards.php).
    expect(await refusal(client.delete(`/wp/v2/users/${admin.id}/application-passwords`))).not.toBe('done');
    expect(await refusal(client.get(`/wp/v2/users/${admin.id}/application-passwords`))).not.toBe('done');
    expect(await exists(admin.id)).toBe(true);
    expect(await sessions(admin.id)).toBe(1);
    expect((await appPasswordStatus(admin.username, adminApp)).status).toBe(200);
  });

  it('can still offboard a subscriber, giving the posts to an author', async () => {
    const leaver = await makeUser({ prefix: 'leaver' });
    const heir = await makeUser({ prefix: 'heir', roles: ['author'] });
    const post = await wp().post<{ id: number }>('/wp/v2/posts', {
      title: 'Left behind',
      author: leaver.id,
      status: 'draft',
    });
    const outcome = await runIn(manager, 'delete-user', { id: leaver.id, reassign_to: heir.id });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true, result: { deleted: true } });
    expect(await exists(leaver.id)).toBe(false);
    expect((await wp().get<{ author: number }>(`/wp/v2/posts/${post.id}`, { context: 'edit' })).author).toBe(heir.id);
  });

  it('reassign_to must be another existing user who can write posts, whoever that is', async () => {
    // A subscriber: an author would hold capabilities the manager lacks (edit_posts, …).
    const leaver = await makeUser({ prefix: 'leaver' });
    const reader = await makeUser({ prefix: 'reader' });
    // An editor holds capabilities the manager lacks: it may still inherit the posts.
    const heir = await makeUser({ prefix: 'heir', roles: ['editor'] });
    const post = await wp().post<{ id: number }>('/wp/v2/posts', { title: 'Kept', author: leaver.id, status: 'draft' });
    for (const reassign_to of [leaver.id, reader.id, managerId, 999999]) {
      const outcome = await runIn(manager, 'delete-user', { id: leaver.id, reassign_to });
      expect(outcome, `reassign_to ${reassign_to}`).toMatchObject({ ok: false, error: { code: 'invalid_reassign' } });
      const direct = manager.client.delete(`/wp/v2/users/${leaver.id}`, { force: true, reassign: reassign_to });
      expect(await refusal(direct), `reassign ${reassign_to}`).toBe('cms_admin_invalid_reassign');
    }
    expect(await exists(leaver.id)).toBe(true);
    expect((await wp().get<{ author: number }>(`/wp/v2/posts/${post.id}`, { context: 'edit' })).author).toBe(leaver.id);

    const outcome = await runIn(manager, 'delete-user', { id: leaver.id, reassign_to: heir.id });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true, result: { reassigned_to: { id: heir.id } } });
    expect(await exists(leaver.id)).toBe(false);
    expect((await wp().get<{ author: number }>(`/wp/v2/posts/${post.id}`, { context: 'edit' })).author).toBe(heir.id);
  });

  it('logs out a weaker account and revokes its passwords, asking first; never its own password', async () => {
    const target = await makeUser({ prefix: 'weaker' });
    const targetApp = await makeAppPassword(target.id);
    expect((await formLogin(target.username, target.password)).ok).toBe(true);

    expect(await reviewCall(findTool('log-out-user')!, manager, { user_id: target.id })).toMatchObject({
      approval: 'required',
      summary: expect.stringContaining(`end 1 login session(s) of ${target.username}`),
    });
    expect(await runIn(manager, 'list-user-sessions', { user_id: target.id })).toMatchObject({
      ok: true,
      result: { total: 1, items: [{ ip: '127.0.0.1' }] },
    });
    expect(await runIn(manager, 'log-out-user', { user_id: target.id })).toMatchObject({
      ok: true,
      result: { sessions_ended: 1 },
    });
    expect(await sessions(target.id)).toBe(0);

    expect(await reviewCall(findTool('revoke-app-passwords')!, manager, { user_id: target.id })).toMatchObject({
      approval: 'required',
    });
    expect(await runIn(manager, 'revoke-app-passwords', { user_id: target.id })).toMatchObject({
      ok: true,
      result: { count: 1 },
    });
    expect((await appPasswordStatus(target.username, targetApp)).status).toBe(401);

    const listed = await runIn(manager, 'list-app-passwords', { user_id: managerId });
    expect(listed).toMatchObject({ ok: true, result: { total: 1, items: [{ used_by_this_toolkit: true }] } });
    expect(await runIn(manager, 'revoke-app-passwords', { user_id: managerId })).toMatchObject({
      ok: false,
      error: { code: 'own_app_password' },
    });
    expect(await refusal(manager.client.delete(`/wp/v2/users/${managerId}/application-passwords`))).toBe(
      'cms_admin_own_app_password',
    );
    expect((await appPasswordStatus(managerUsername, managerApp)).status).toBe(200);
  });

  it('cannot delete or log out itself', async () => {
    const heir = await makeUser({ prefix: 'heir', roles: ['author'] });
    expect(await runIn(manager, 'delete-user', { id: managerId, reassign_to: heir.id })).toMatchObject({
      ok: false,
      error: { code: 'cannot_delete_self' },
    });
    expect(await runIn(manager, 'log-out-user', { user_id: managerId })).toMatchObject({
      ok: false,
      error: { code: 'cannot_log_out_self' },
    });
    expect(await refusal(manager.client.delete(`/wp/v2/users/${managerId}`, { force: true, reassign: heir.id }))).toBe(
      'cms_admin_cannot_delete_self',
    );
    expect(await exists(managerId)).toBe(true);
  });

  it('cannot delete the last enabled administrator', async () => {
    const me = await wp().get<{ id: number }>('/wp/v2/users/me');
    const heir = await makeUser({ prefix: 'heir', roles: ['author'] });
    const admins: number[] = JSON.parse(await wpPhp('echo json_encode(cms_admin_enabled_administrators());'));
    const others = admins.filter((id) => id !== me.id);
    try {
      await wpPhp(
        `foreach ([${others.join(',')}] as $id) { update_user_meta($id, '_cms_admin_disabled', ['reason' => 'last-admin test', 'disabled_at' => gmdate('c'), 'disabled_by' => 0]); }`,
      );
      // The tool cannot see the other administrators' state (the manager may not open them), so
      // it refuses the stronger account; the plugin, which sees everything, names the real reason.
      const outcome = await runIn(manager, 'delete-user', { id: me.id, reassign_to: heir.id });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'account_stronger_than_caller' } });
      expect(await refusal(manager.client.delete(`/wp/v2/users/${me.id}`, { force: true, reassign: heir.id }))).toBe(
        'cms_admin_last_administrator',
      );
      expect(await exists(me.id)).toBe(true);
    } finally {
      await wpPhp(`foreach ([${others.join(',')}] as $id) { delete_user_meta($id, '_cms_admin_disabled'); }`);
    }
  });
});
