import { afterAll, describe, expect, it } from 'vitest';
import { wp } from '../../helpers/site.js';
import { Browser } from './browser.js';
import { expectNoSecretsLeaked, mailTo, makeUser, newPassword, resetThroughLink, run, wpPhp } from './helpers.js';

/**
 * Security review, issue #26, finding 6: a disabled user could still reset their own password
 * through wp-login.php (the mail was sent, the reset page took a new password). Now no reset
 * key is made for a disabled account, a link made before is void, and the lost-password form
 * answers exactly as for an enabled account.
 */
afterAll(() => expectNoSecretsLeaked());

const passwordHash = async (id: number) => (await wpPhp(`echo get_userdata(${id})->user_pass;`)).trim();

async function askForReset(login: string) {
  const response = await new Browser().request('/wp-login.php?action=lostpassword', { form: { user_login: login } });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

describe('a disabled account gets no password reset', () => {
  it('the lost-password form sends nothing and answers as for an enabled account', async () => {
    const [enabled, disabled] = [await makeUser(), await makeUser()];
    await wp().post(`/cms-admin/v1/users/${disabled.id}/disable`, { reason: 'left the company' });
    const before = await passwordHash(disabled.id);

    const [forEnabled, forDisabled] = [await askForReset(enabled.username), await askForReset(disabled.username)];
    expect(forEnabled).toMatchObject({ status: 302, location: expect.stringContaining('checkemail=confirm') });
    expect(forDisabled).toEqual(forEnabled);
    expect((await mailTo(enabled.email)).length).toBe(1);
    expect(await mailTo(disabled.email)).toEqual([]);
    // By email address too, as the form allows.
    expect(await askForReset(disabled.email)).toEqual(forEnabled);
    expect(await mailTo(disabled.email)).toEqual([]);
    expect(await passwordHash(disabled.id)).toBe(before);
  });

  it('a reset link made before the account was disabled no longer sets a password', async () => {
    const user = await makeUser();
    const { reset_link: link } = await wp().post<{ reset_link: string }>(
      `/cms-admin/v1/users/${user.id}/password-reset`,
      { delivery: 'link' },
    );
    await wp().post(`/cms-admin/v1/users/${user.id}/disable`, {});
    const before = await passwordHash(user.id);
    const chosen = newPassword();
    expect(await resetThroughLink(link, chosen)).toBe(false);
    expect(await passwordHash(user.id)).toBe(before);
    // Enabled again, the old password works and the chosen one never did.
    await wp().post(`/cms-admin/v1/users/${user.id}/enable`);
    expect(await new Browser().login(user.username, user.password)).toBe(true);
    expect(await new Browser().login(user.username, chosen)).toBe(false);
  });

  it('reset-user-password on a disabled account says why', async () => {
    const user = await makeUser();
    await wp().post(`/cms-admin/v1/users/${user.id}/disable`, {});
    const outcome = await run('reset-user-password', { id: user.id });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'user_disabled', hint: expect.stringContaining('enable-user') },
    });
    expect(await mailTo(user.email)).toEqual([]);
  });
});
