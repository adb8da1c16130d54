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
  run,
  runError,
  runOk,
  secret,
} from './helpers.js';

/** The reset link in WordPress's email (retrieve_password()), registered as a secret. */
async function resetLinkMailedTo(email: string): Promise<string> {
  const mails = await mailTo(email);
  const mail = mails.at(-1);
  expect(mail?.subject).toContain('Password Reset');
  const link = /(http\S+wp-login\.php\?action=rp\S+)/.exec(mail?.message ?? '')?.[1];
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

    // Nothing changed yet: the old password still works until the user picks a new one.
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    const fresh = newPassword();
    expect(await resetThroughLink(link, fresh)).toBe(true);
    expect((await formLogin(user.username, fresh)).ok).toBe(true);
    expect((await formLogin(user.username, user.password)).ok).toBe(false);
    expect((await readUser(user.id)).email).toBe(before.email);
  });

  it('returns the link, marked sensitive, with delivery "link", and sends no email', async () => {
    const user = await makeUser();
    const mailsBefore = (await mailTo(user.email)).length;
    const outcome = await run('reset-user-password', { id: user.id, delivery: 'link' });
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
