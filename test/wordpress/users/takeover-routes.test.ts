import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import type { ToolContext } from '../../../src/call/index.js';
import { testSite } from '../../helpers/site.js';
import { Browser, restAs } from './browser.js';
import {
  expectNoSecretsLeaked,
  type Fixture,
  makeAppPassword,
  makeUser,
  newIdentity,
  newPassword,
  runIn,
  wpPhp,
} from './helpers.js';

/**
 * Issue #26 audit: every other way to the data the stronger-account rule guards, tried by a
 * custom "user administrator" role with exactly read, list_users, edit_users, promote_users,
 * create_users and delete_users (its own application password, its own wp-admin login), and by
 * a "creator" with only read, list_users, create_users. Each attack is refused and the site
 * reads back unchanged.
 */
const ROLES = {
  cms_test_user_admin: ['read', 'list_users', 'edit_users', 'promote_users', 'create_users', 'delete_users'],
  cms_test_creator: ['read', 'list_users', 'create_users'],
};
type Attacker = Fixture & { appPassword: string; context: ToolContext };
const as = {} as Record<keyof typeof ROLES, Attacker>;

beforeAll(async () => {
  for (const [role, caps] of Object.entries(ROLES)) {
    const granted = caps.map((c) => `'${c}' => true`).join(', ');
    await wpPhp(`remove_role('${role}'); add_role('${role}', '${role}', [${granted}]);`);
    const user = await makeUser({ prefix: role.slice(9), roles: [role] });
    const appPassword = await makeAppPassword(user.id);
    const context = createContext({ url: testSite().url, username: user.username, appPassword });
    as[role as keyof typeof ROLES] = { ...user, appPassword, context };
  }
});
afterAll(() => expectNoSecretsLeaked());

/** Everything an attack on an account could change, read from WordPress itself. */
const snapshot = async (id: number) =>
  JSON.parse(
    await wpPhp(`$u = get_userdata(${id}); echo json_encode([$u->user_email, $u->user_pass, $u->roles, $u->user_activation_key,
      wp_list_pluck(WP_Application_Passwords::get_user_application_passwords(${id}), 'uuid'),
      count(WP_Session_Tokens::get_instance(${id})->get_all()), get_user_meta(${id}, '_cms_admin_disabled', true)]);`),
  );
const roleOf = async (login: string) =>
  (await wpPhp(`$u = get_user_by('login', '${login}'); echo $u ? implode(',', $u->roles) : 'none';`)).trim();

/** Logs in through wp-login.php; `post` sends a wp-admin form with the nonce the page gave. */
async function admin(who: Fixture) {
  const browser = new Browser();
  expect(await browser.login(who.username, who.password)).toBe(true);
  const page = async (path: string) => (await browser.request(`/wp-admin/${path}`)).text();
  const post = async (path: string, form: Record<string, string>) => {
    const response = await browser.request(`/wp-admin/${path}`, { form });
    return { status: response.status, location: response.headers.get('location') ?? '', body: await response.text() };
  };
  return { page, post };
}
const nonce = (html: string, name = '_wpnonce') =>
  new RegExp(`name="${name}" value="([0-9a-f]+)"`).exec(html)?.[1] ?? '';

describe('a user administrator (edit, promote, create, delete users) and an administrator’s account', () => {
  it('core’s application-password, user and sessions routes refuse it; the account is unchanged', async () => {
    const { cms_test_user_admin: attacker } = as;
    const victim = await makeUser({ prefix: 'victim', roles: ['administrator'] });
    const key = await makeAppPassword(victim.id);
    expect(await new Browser().login(victim.username, victim.password)).toBe(true); // one session
    const before = await snapshot(victim.id);
    const [uuid] = before[4] as string[];
    const attempts: Array<[string, string, unknown?]> = [
      // A new application password would be a key to the account.
      ['POST', `/wp/v2/users/${victim.id}/application-passwords`, { name: 'backdoor' }],
      ['GET', `/wp/v2/users/${victim.id}/application-passwords`],
      ['POST', `/wp/v2/users/${victim.id}/application-passwords/${uuid}`, { name: 'renamed' }],
      ['DELETE', `/wp/v2/users/${victim.id}/application-passwords/${uuid}`],
      ['DELETE', `/wp/v2/users/${victim.id}/application-passwords`],
      ['POST', `/wp/v2/users/${victim.id}`, { roles: ['subscriber'] }],
      ['POST', `/wp/v2/users/${victim.id}`, { email: `thief-${victim.id}@example.net` }],
      ['POST', `/WP/V2/USERS/${victim.id}`, { password: newPassword() }],
      ['DELETE', `/wp/v2/users/${victim.id}?force=true&reassign=${attacker.id}`],
      ['GET', `/cms-admin/v1/users/${victim.id}/sessions`],
      ['DELETE', `/cms-admin/v1/users/${victim.id}/sessions`],
      ['POST', `/cms-admin/v1/users/${victim.id}/password-reset`, { delivery: 'link' }],
      ['POST', `/cms-admin/v1/users/${victim.id}/disable`, {}],
    ];
    for (const [method, route, body] of attempts) {
      const answer = await restAs(attacker, method, route, body);
      expect([400, 403], `${method} ${route}: ${answer.body?.code}`).toContain(answer.status);
    }
    expect(await snapshot(victim.id)).toEqual(before);
    expect(JSON.stringify(before)).not.toContain(key);
  });

  it('wp-admin’s bulk actions refuse it: change role, delete, send password reset', async () => {
    const { cms_test_user_admin: attacker } = as;
    const victim = await makeUser({ prefix: 'victim', roles: ['administrator'] });
    const heir = await makeUser({ roles: ['author'] });
    const before = await snapshot(victim.id);
    const screen = await admin(attacker);
    const bulk = nonce(await screen.page('users.php'));
    const users = { _wpnonce: bulk, 'users[]': String(victim.id) };
    // The delete confirmation screen lists anyone; its form carries the nonce "Confirm Deletion" needs.
    const confirm = nonce(await screen.page(`users.php?action=delete&users[]=${victim.id}&_wpnonce=${bulk}`));
    const answers = [
      await screen.post('users.php', { ...users, action: 'promote', new_role: 'subscriber', changeit: 'Change' }),
      await screen.post('users.php', {
        ...users,
        _wpnonce: confirm,
        action: 'dodelete',
        delete_option: 'reassign',
        reassign_user: String(heir.id),
      }),
      await screen.post('users.php', { ...users, action: 'resetpassword' }),
    ];
    for (const answer of answers) expect(answer.body).toMatch(/not allowed/i);
    expect(await snapshot(victim.id)).toEqual(before);
  });

  it('promotes no one through user creation: create-user, core’s route and user-new.php', async () => {
    const { cms_test_user_admin: attacker } = as;
    const ids = [newIdentity('promoted'), newIdentity('promoted'), newIdentity('promoted')];
    const viaTool = await runIn(attacker.context, 'create-user', {
      ...ids[0],
      password: newPassword(),
      role: 'administrator',
    });
    expect(viaTool).toMatchObject({ ok: false, error: { code: 'role_stronger_than_caller' } });
    const viaRest = await restAs(attacker, 'POST', '/wp/v2/users', {
      ...ids[1],
      password: newPassword(),
      roles: ['administrator'],
    });
    expect(viaRest).toMatchObject({ status: 403, body: { code: 'rest_user_invalid_role' } });
    const viaScreen = await createOnScreen(attacker, ids[2]!, 'administrator');
    expect(viaScreen.body).toContain('not allowed to give users that role');
    for (const id of ids) expect(await roleOf(id.username)).toBe('none');
  });
});

/** user-new.php's form as the attacker posts it in wp-admin; without `role`, as the form without a role field (WordPress gives the default). */
async function createOnScreen(
  attacker: (typeof as)[keyof typeof as],
  id: { username: string; email: string },
  role?: string,
) {
  const screen = await admin(attacker);
  const form = nonce(await screen.page('user-new.php'), '_wpnonce_create-user');
  const password = newPassword();
  return screen.post('user-new.php', {
    action: 'createuser',
    '_wpnonce_create-user': form,
    user_login: id.username,
    email: id.email,
    pass1: password,
    pass2: password,
    ...(role && { role }),
  });
}

describe('the delete and own-password guards hold however the route is spelt', () => {
  it('upper case reaches the same handlers (WordPress matches routes case-insensitively): still refused', async () => {
    const self = await makeUser({ prefix: 'selfdel', roles: ['cms_test_user_admin'] });
    const who = { username: self.username, appPassword: await makeAppPassword(self.id) };
    const [heir, subscriber] = [await makeUser({ roles: ['author'] }), await makeUser()];
    const uuid = (
      await wpPhp(`echo WP_Application_Passwords::get_user_application_passwords(${self.id})[0]['uuid'];`)
    ).trim();
    const code = async (route: string) => (await restAs(who, 'DELETE', route)).body.code;
    expect(await code(`/WP/V2/USERS/${self.id}?force=true&reassign=${heir.id}`)).toBe('cms_admin_cannot_delete_self');
    expect(await code(`/WP/V2/USERS/ME?force=true&reassign=${heir.id}`)).toBe('cms_admin_cannot_delete_self');
    expect(await code(`/Wp/V2/Users/${heir.id}?force=true&reassign=${subscriber.id}`)).toBe(
      'cms_admin_invalid_reassign',
    );
    expect(await code(`/WP/V2/USERS/me/application-passwords/${uuid}`)).toBe('cms_admin_own_app_password');
    expect(await roleOf(self.username)).toBe('cms_test_user_admin');
    expect(await roleOf(heir.username)).toBe('author');
    expect((await restAs(who, 'GET', '/wp/v2/users/me')).status).toBe(200);
  });
});

describe('a new account without a role gets the default role: not one above its creator’s', () => {
  it.each(['cms_test_user_admin', 'cms_test_creator'] as const)(
    '%s with default_role editor: refused everywhere',
    async (role) => {
      const attacker = as[role];
      const old = (await wpPhp(`echo get_option('default_role');`)).trim();
      await wpPhp(`update_option('default_role', 'editor');`);
      const ids = [newIdentity('dflt'), newIdentity('dflt'), newIdentity('dflt')];
      try {
        const viaTool = await runIn(attacker.context, 'create-user', { ...ids[0], password: newPassword() });
        expect(viaTool).toMatchObject({
          ok: false,
          error: { code: 'role_stronger_than_caller', message: expect.stringContaining('default role editor') },
        });
        const viaRest = await restAs(attacker, 'POST', '/wp/v2/users', { ...ids[1], password: newPassword() });
        expect(viaRest).toMatchObject({ status: 403, body: { code: 'cms_admin_role_stronger_than_caller' } });
        // user-new.php has no role field without promote_users: WordPress would give the default.
        const viaScreen = await createOnScreen(attacker, ids[2]!);
        expect(viaScreen.body).toContain('gets the default role editor');
        for (const id of ids) expect(await roleOf(id.username)).toBe('none');
      } finally {
        await wpPhp(`update_option('default_role', '${old}');`);
      }
      // With a default role within its own, creating works as before.
      const fine = newIdentity('dflt');
      const created = await restAs(attacker, 'POST', '/wp/v2/users', { ...fine, password: newPassword() });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(await roleOf(fine.username)).toBe(old);
    },
  );
});
