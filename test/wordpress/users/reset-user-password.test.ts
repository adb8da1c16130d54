import { afterAll, describe, expect, it } from 'vitest';
import {
  allowIn,
  expectNoSecretsLeaked,
  formLogin,
  mailTo,
  makeUser,
  newPassword,
  readUser,
  resetThroughLink,
  runError,
  runIn,
  runOk,
  secret,
  wpPhp,
} from './helpers.js';
import { createContext } from '../../../src/config.js';
import type { HandedSecret } from '../../../src/call/index.js';
import { testSite, wordPressAtLeast } from '../../helpers/site.js';

/** The stored (hashed) reset key; '' when no reset was started. */
async function activationKey(id: number): Promise<string> {
  return (await wpPhp(`echo get_userdata(${id})->user_activation_key;`)).trim();
}

/** The reset link in WordPress's email (retrieve_password()), registered as a secret. */
async function resetLinkMailedTo(email: string): Promise<string> {
  const mails = await mailTo(email);
  const mail = mails.at(-1);
  expect(mail?.subject).toContain('Password Reset');
  // WordPress 6.7+ puts action=rp last (wp-login.php?login=…&key=…&action=rp), 6.1 first.
  const link = /(http\S+wp-login\.php\?\S*action=rp\S*)/.exec(mail?.message ?? '')?.[1];
  if (!link) throw new Error(`no reset link in: ${mail?.message}`);
  secret(new URL(link).searchParams.get('key') ?? link);
  return secret(link);
}

describe('reset-user-password', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('emails WordPress’s reset link by default; the link sets a new password that logs in', async () => {
    const user = await makeUser();
    const before = await readUser(user.id);
    const mailsBefore = (await mailTo(user.email)).length;

    const result = await runOk('reset-user-password', { id: user.id });

    const [local = ''] = user.email.split('@');
    expect(result).toEqual({
      id: user.id,
      username: user.username,
      delivery: 'email',
      sent_to: `${local[0]}***${local.at(-1)}@example.org`,
      expires_in_hours: 24,
    });
    expect((await mailTo(user.email)).length).toBe(mailsBefore + 1);
    const link = await resetLinkMailedTo(user.email);

    const fresh = newPassword();
    expect(await resetThroughLink(link, fresh)).toBe(true);
    expect((await formLogin(user.username, fresh)).ok).toBe(true);
    expect((await formLogin(user.username, user.password)).ok).toBe(false);
    expect((await readUser(user.id)).email).toBe(before.email);
  });

  it('leaves the old password working until the link is used (a login with it voids the link on 6.6+)', async () => {
    const user = await makeUser();
    await runOk('reset-user-password', { id: user.id });
    const link = await resetLinkMailedTo(user.email);
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    // WordPress 6.6 clears the reset key on every successful login (wp_signon()):
    // https://github.com/WordPress/wordpress-develop/blob/6.6/src/wp-includes/user.php (wp_signon)
    const linkStillWorks = !wordPressAtLeast('6.6');
    expect(await resetThroughLink(link, newPassword())).toBe(linkStillWorks);
    expect((await formLogin(user.username, user.password)).ok).toBe(!linkStillWorks);
  });

  it('refuses delivery "link" when no one can receive the link, before making one', async () => {
    const user = await makeUser();
    const mailsBefore = (await mailTo(user.email)).length;
    const error = await runError('reset-user-password', { id: user.id, delivery: 'link' });
    expect(error).toMatchObject({ code: 'no_one_to_receive_link', hint: expect.stringContaining('--show-reset-link') });
    expect(await activationKey(user.id)).toBe('');
    expect((await mailTo(user.email)).length).toBe(mailsBefore);
  });

  it('hands the link to the operator; the result only says so, and the link works', async () => {
    const user = await makeUser();
    const handed: HandedSecret[] = [];
    const context = createContext(testSite(), {
      secretsTo: async (s) => {
        handed.push(s);
        secret(s.value);
        secret(new URL(s.value).searchParams.get('key') ?? s.value);
        return 'the test operator';
      },
    });
    const outcome = await runIn(context, 'reset-user-password', { id: user.id, delivery: 'link' });
    expect(outcome).toMatchObject({
      ok: true,
      result: { id: user.id, username: user.username, delivery: 'link', link_given_to: 'the test operator' },
    });
    expect(handed).toEqual([
      { kind: 'reset_link', user: { id: user.id, username: user.username }, value: expect.stringContaining('action=rp'), expires_in_hours: 24 },
    ]);
    expect(await resetThroughLink(handed[0]!.value, newPassword())).toBe(true);
  });

  it('returns the link, marked sensitive, only when the caller asked for links in results, and sends no email', async () => {
    const user = await makeUser();
    const mailsBefore = (await mailTo(user.email)).length;
    const outcome = await runIn(createContext(testSite(), { secretsTo: 'result' }), 'reset-user-password', {
      id: user.id,
      delivery: 'link',
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const result = outcome.result as Record<string, any>;
    // The link is what was asked for here, and a secret in every other outcome.
    allowIn(outcome, [result.reset_link, new URL(result.reset_link).searchParams.get('key') ?? '']);
    expect(result).toMatchObject({
      id: user.id,
      delivery: 'link',
      sensitive: true,
      reset_link: expect.stringContaining('action=rp'),
    });
    expect((await mailTo(user.email)).length).toBe(mailsBefore);

    const fresh = newPassword();
    expect(await resetThroughLink(result.reset_link, fresh)).toBe(true);
    expect((await formLogin(user.username, fresh)).ok).toBe(true);
  });

  it('says when the user does not exist', async () => {
    expect(await runError('reset-user-password', { id: 987654 })).toMatchObject({ code: 'user_not_found' });
  });
});
