import { afterAll, describe, expect, it } from 'vitest';
import { findTool, reviewCall } from '../../../src/call/index.js';
import { testContext } from '../../helpers/site.js';
import {
  appPasswordStatus,
  expectNoSecretsLeaked,
  formLogin,
  makeAppPassword,
  makeUser,
  readUser,
  runError,
  runOk,
  wpPhp,
  xmlrpcAccepts,
} from './helpers.js';

describe('disable-user', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('blocks form logins and application passwords until enable-user, keeping the account', async () => {
    const user = await makeUser({ roles: ['author'] });
    const appPassword = await makeAppPassword(user.id);
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    expect((await appPasswordStatus(user.username, appPassword)).status).toBe(200);
    expect(await xmlrpcAccepts(user.username, user.password)).toBe(true);
    expect(await xmlrpcAccepts(user.username, appPassword)).toBe(true);

    const result = await runOk('disable-user', { id: user.id, reason: 'Left the company' });
    expect(result).toEqual({
      id: user.id,
      username: user.username,
      disabled: true,
      reason: 'Left the company',
      disabled_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });

    const login = await formLogin(user.username, user.password);
    expect(login.ok).toBe(false);
    expect(login.body).toContain('This account is disabled');
    expect(await appPasswordStatus(user.username, appPassword)).toEqual({
      status: 401,
      code: 'cms_admin_user_disabled',
    });
    // Not even an anonymous read: the client learns why (WordPress 6.1 alone would serve it as a visitor).
    expect(await appPasswordStatus(user.username, appPassword, '/wp/v2/posts?per_page=1')).toEqual({
      status: 401,
      code: 'cms_admin_user_disabled',
    });
    expect(await xmlrpcAccepts(user.username, user.password)).toBe(false);
    expect(await xmlrpcAccepts(user.username, appPassword)).toBe(false);
    // A wrong password still gets WordPress's ordinary answer: the state is not told to strangers.
    expect((await formLogin(user.username, 'not-the-password-at-all')).body).not.toContain('disabled');

    const stored = await readUser(user.id);
    expect(stored.cms_disabled).toBe(true);
    expect(stored.roles).toEqual(['author']);

    expect(await runOk('enable-user', { id: user.id })).toEqual({
      id: user.id,
      username: user.username,
      disabled: false,
      was_disabled: true,
    });
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    expect((await appPasswordStatus(user.username, appPassword)).status).toBe(200);
    expect(await xmlrpcAccepts(user.username, appPassword)).toBe(true);
    expect((await readUser(user.id)).cms_disabled).toBe(false);
  });

  it('its question names the account, its roles and the reason that will be stored', async () => {
    const user = await makeUser({ roles: ['author'] });
    const tool = findTool('disable-user')!;
    const review = await reviewCall(tool, testContext(), { id: user.id, reason: 'Left the company' });
    expect(review).toEqual({ approval: 'required', summary: `disable ${user.username}'s account (roles: author, reason: "Left the company")` });
    expect((await readUser(user.id)).cms_disabled).toBe(false);
  });

  it('ends the user’s existing login sessions', async () => {
    const user = await makeUser();
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    await runOk('disable-user', { id: user.id });
    const sessions = await readSessionCount(user.id);
    expect(sessions).toBe(0);
  });

  it('keeps the first disable time and updates the reason when disabled again', async () => {
    const user = await makeUser();
    const first = await runOk('disable-user', { id: user.id, reason: 'first' });
    const again = await runOk('disable-user', { id: user.id, reason: 'second' });
    expect(again).toMatchObject({
      disabled: true,
      reason: 'second',
      disabled_at: first.disabled_at,
      already_disabled: true,
    });
  });

  it('refuses to disable the account the toolkit is signed in as', async () => {
    const me = await testContext().client.connect();
    const error = await runError('disable-user', { id: me.id });
    expect(error.code).toBe('cannot_disable_self');
    expect((await readUser(me.id)).cms_disabled).toBe(false);
  });

  it('says when the user does not exist', async () => {
    const error = await runError('disable-user', { id: 987654 });
    expect(error).toMatchObject({ code: 'user_not_found', hint: expect.stringContaining('list-users') });
  });
});

/** Session tokens live in the `session_tokens` user meta; read it through PHP, as REST hides it. */
async function readSessionCount(id: number): Promise<number> {
  return Number(await wpPhp(`echo count(WP_Session_Tokens::get_instance(${id})->get_all());`));
}
