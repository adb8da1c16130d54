import { afterAll, describe, expect, it } from 'vitest';
import {
  appPasswordStatus,
  expectNoSecretsLeaked,
  formLogin,
  makeAppPassword,
  makeUser,
  readUser,
  runError,
  runOk,
} from './helpers.js';

describe('enable-user', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('gives a disabled account its logins and application passwords back', async () => {
    const user = await makeUser({ roles: ['editor'] });
    const appPassword = await makeAppPassword(user.id);
    await runOk('disable-user', { id: user.id, reason: 'investigation' });
    expect((await formLogin(user.username, user.password)).ok).toBe(false);

    const result = await runOk('enable-user', { id: user.id });

    expect(result).toEqual({ id: user.id, username: user.username, disabled: false, was_disabled: true });
    expect((await readUser(user.id)).cms_disabled).toBe(false);
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
    expect((await appPasswordStatus(user.username, appPassword)).status).toBe(200);
    expect((await readUser(user.id)).roles).toEqual(['editor']);
  });

  it('is harmless on an account that is not disabled', async () => {
    const user = await makeUser();
    expect(await runOk('enable-user', { id: user.id })).toMatchObject({ disabled: false, was_disabled: false });
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
  });

  it('says when the user does not exist', async () => {
    expect(await runError('enable-user', { id: 987654 })).toMatchObject({ code: 'user_not_found' });
  });
});
