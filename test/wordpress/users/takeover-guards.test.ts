import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { findTool, reviewCall, type ToolContext } from '../../../src/call/index.js';
import { testSite, wp } from '../../helpers/site.js';
import { Browser, restAs } from './browser.js';
import {
  expectNoSecretsLeaked,
  type Fixture,
  mailTo,
  makeAppPassword,
  makeUser,
  newPassword,
  readUser,
  runIn,
  wpPhp,
} from './helpers.js';

/**
 * Security review, issue #26, findings 1 and 2: a role with exactly `read`, `list_users`,
 * `edit_users` (and one with `promote_users` too) must not take over an administrator, promote
 * itself, or re-enable a disabled administrator — through the tools, core's REST routes, or
 * wp-admin. Each attack is tried as the review did; the site is read back unchanged.
 */
const ROLES = {
  cms_test_manager: { read: true, list_users: true, edit_users: true },
  cms_test_promoter: { read: true, list_users: true, edit_users: true, promote_users: true },
  cms_test_deleter: { read: true, list_users: true, delete_users: true },
};
type Attacker = Fixture & { appPassword: string; context: ToolContext };
const attackers = {} as Record<keyof typeof ROLES, Attacker>;

beforeAll(async () => {
  for (const [role, caps] of Object.entries(ROLES)) {
    await wpPhp(`remove_role('${role}'); add_role('${role}', '${role}', ${phpArray(caps)});`);
    const user = await makeUser({ prefix: role.slice(9), roles: [role] });
    const appPassword = await makeAppPassword(user.id);
    const context = createContext({ url: testSite().url, username: user.username, appPassword });
    attackers[role as keyof typeof ROLES] = { ...user, appPassword, context };
  }
});
afterAll(() => expectNoSecretsLeaked());

function phpArray(caps: Record<string, boolean>): string {
  return `[${Object.keys(caps)
    .map((c) => `'${c}' => true`)
    .join(', ')}]`;
}

/** What an attack could have changed on an account. */
async function snapshot(id: number) {
  const user = await readUser(id);
  const hash = (await wpPhp(`echo get_userdata(${id})->user_pass;`)).trim();
  return { email: user.email, roles: user.roles, disabled: user.cms_disabled, hash };
}

describe('finding 1: a user manager cannot take over an administrator', () => {
  it('update-user (new email and password) is refused; the new password opens nothing, the reset mail goes to the owner', async () => {
    const { cms_test_manager: manager } = attackers;
    const admin = await makeUser({ prefix: 'victim', roles: ['administrator'] });
    const before = await snapshot(admin.id);
    const stolen = { email: `thief-${admin.id}@example.net`, password: newPassword() };

    // No one is even asked: the review already knows the call cannot succeed.
    const review = await reviewCall(findTool('update-user')!, manager.context, { id: admin.id, ...stolen });
    expect(review).toMatchObject({ approval: 'fails', error: { code: 'account_stronger_than_caller' } });
    const outcome = await runIn(manager.context, 'update-user', { id: admin.id, ...stolen });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'account_stronger_than_caller', message: expect.stringContaining('manage_options') },
    });
    // The same attack straight at WordPress's own route: WordPress refuses, not only the toolkit.
    const direct = await restAs(manager, 'POST', `/wp/v2/users/${admin.id}`, stolen);
    expect(direct).toMatchObject({ status: 403, body: { code: 'cms_admin_account_stronger_than_caller' } });
    expect(await snapshot(admin.id)).toEqual(before);

    const thief = new Browser();
    expect(await thief.login(admin.username, stolen.password)).toBe(false);
    const lost = await thief.request('/wp-login.php?action=lostpassword', { form: { user_login: admin.username } });
    expect(lost.status).toBe(302);
    expect(await mailTo(stolen.email)).toEqual([]);
    expect((await mailTo(admin.email)).length).toBeGreaterThan(0);
    // The fixture is a real administrator: its own password still opens the settings.
    const owner = new Browser();
    expect(await owner.login(admin.username, admin.password)).toBe(true);
    expect(await owner.opens('options-general.php')).toBe(true);
  });

  it('wp-admin refuses the manager the administrator’s profile screen, not a subscriber’s', async () => {
    const { cms_test_manager: manager } = attackers;
    const [admin, subscriber] = [await makeUser({ roles: ['administrator'] }), await makeUser()];
    const browser = new Browser();
    expect(await browser.login(manager.username, manager.password)).toBe(true);
    expect(await browser.opens(`user-edit.php?user_id=${subscriber.id}`)).toBe(true);
    expect(await browser.opens(`user-edit.php?user_id=${admin.id}`)).toBe(false);
  });

  it('a role with promote_users cannot make itself (or anyone) administrator', async () => {
    const { cms_test_promoter: promoter } = attackers;
    const before = await snapshot(promoter.id);
    const self = await runIn(promoter.context, 'set-user-role', { id: promoter.id, role: 'administrator' });
    expect(self).toMatchObject({
      ok: false,
      error: { code: 'role_stronger_than_caller', message: expect.stringContaining('manage_options') },
    });
    const direct = await restAs(promoter, 'POST', `/wp/v2/users/${promoter.id}`, { roles: ['administrator'] });
    expect(direct).toMatchObject({ status: 403, body: { code: 'rest_user_invalid_role' } });
    expect(await snapshot(promoter.id)).toEqual(before);

    const subscriber = await makeUser();
    const other = await runIn(promoter.context, 'set-user-role', { id: subscriber.id, role: 'administrator' });
    expect(other).toMatchObject({ ok: false, error: { code: 'role_stronger_than_caller' } });
    expect((await restAs(promoter, 'POST', `/wp/v2/users/${subscriber.id}`, { roles: ['editor'] })).status).toBe(403);
    expect((await readUser(subscriber.id)).roles).toEqual(['subscriber']);
    // Roles within its own capabilities still work.
    const fine = await runIn(promoter.context, 'set-user-role', { id: subscriber.id, role: 'cms_test_manager' });
    expect(fine, JSON.stringify(fine)).toMatchObject({ ok: true });
    expect((await readUser(subscriber.id)).roles).toEqual(['cms_test_manager']);
  });

  it('a role with delete_users cannot delete an administrator', async () => {
    const { cms_test_deleter: deleter } = attackers;
    const [admin, heir] = [await makeUser({ roles: ['administrator'] }), await makeUser({ roles: ['author'] })];
    const direct = await restAs(deleter, 'DELETE', `/wp/v2/users/${admin.id}?force=true&reassign=${heir.id}`);
    expect(direct).toMatchObject({ status: 403, body: { code: 'cms_admin_account_stronger_than_caller' } });
    expect((await readUser(admin.id)).id).toBe(admin.id);
  });
});

describe('finding 2: the enable route applies the stronger-account rule', () => {
  it('a user manager cannot re-enable an administrator another administrator disabled', async () => {
    const { cms_test_manager: manager } = attackers;
    const admin = await makeUser({ prefix: 'compromised', roles: ['administrator'] });
    await wp().post(`/cms-admin/v1/users/${admin.id}/disable`, { reason: 'compromised' });
    const outcome = await runIn(manager.context, 'enable-user', { id: admin.id });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'account_stronger_than_caller' } });
    const direct = await restAs(manager, 'POST', `/cms-admin/v1/users/${admin.id}/enable`);
    expect(direct).toMatchObject({ status: 403, body: { code: 'cms_admin_account_stronger_than_caller' } });
    expect((await readUser(admin.id)).cms_disabled).toBe(true);
    // An equal (an administrator) still can.
    await wp().post(`/cms-admin/v1/users/${admin.id}/enable`);
    expect((await readUser(admin.id)).cms_disabled).toBe(false);
  });
});

describe('an older companion plugin', () => {
  it.each([
    ['0.2.0', 'edit, promote or re-enable administrators'],
    ['0.3.0', 'give a new account the default role even when it is above its own'],
    ['0.3.2', 'delete the account it is signed in with, or the last administrator'],
    ['0.6.0', 'an account holding a role named after a capability'],
  ])('%s: user writes say to update the companion plugin (0.7.0 makes WordPress itself refuse)', async (version, lets) => {
    const context = createContext(testSite());
    const { client } = context;
    const index = client.index.bind(client);
    client.index = async () => ({ ...(await index()), cms_admin_companion: { version } });
    const user = await makeUser();
    const outcome = await runIn(context, 'update-user', { id: user.id, name: 'Renamed' });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    const warnings = client.warnings.join(' ');
    expect(warnings).toContain(`Update the companion plugin (have ${version}, need 0.7.0 for user-guards)`);
    expect(warnings).toContain(lets);
  });
});
