import { afterAll, describe, expect, it } from 'vitest';
import { wp } from '../../helpers/site.js';
import {
  expectNoSecretsLeaked,
  formLogin,
  makeUser,
  newIdentity,
  newPassword,
  readUser,
  runError,
  runOk,
  secret,
} from './helpers.js';

async function usernameExists(username: string): Promise<boolean> {
  const found = await wp().get<Array<{ username: string }>>('/wp/v2/users', {
    context: 'edit',
    search: username,
    _fields: 'username',
  });
  return found.some((u) => u.username === username);
}

describe('create-user', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('creates a user with role, display name and bio, whose password works', async () => {
    const { username, email } = newIdentity('new');
    const password = newPassword();

    const result = await runOk('create-user', {
      username,
      email,
      password,
      role: 'author',
      name: 'Ada & Co',
      bio: 'Writes about <b>math</b>.',
    });

    expect(result).toEqual({
      id: expect.any(Number),
      username,
      name: 'Ada & Co',
      email,
      roles: ['author'],
      registered_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      disabled: false,
    });
    const stored = await readUser(result.id);
    expect(stored).toMatchObject({ username, email, roles: ['author'], description: 'Writes about <b>math</b>.' });
    expect((await formLogin(username, password)).ok).toBe(true);
  });

  it('uses the site’s default role when none is given', async () => {
    const { username, email } = newIdentity('plain');
    const result = await runOk('create-user', { username, email, password: newPassword() });
    expect(result.roles).toEqual(['subscriber']);
  });

  it('refuses a duplicate username with the existing id, and a duplicate email', async () => {
    const existing = await makeUser();
    const byName = await runError('create-user', {
      username: existing.username,
      email: newIdentity().email,
      password: newPassword(),
    });
    expect(byName).toMatchObject({ code: 'user_exists', details: { id: existing.id } });
    expect(byName.message).toContain(existing.username);

    const { username } = newIdentity('dupmail');
    const byEmail = await runError('create-user', { username, email: existing.email, password: newPassword() });
    expect(byEmail).toMatchObject({ code: 'email_in_use', details: { id: existing.id } });
    expect(await usernameExists(username)).toBe(false);
  });

  it('refuses an unknown role, listing the site’s roles, and creates nothing', async () => {
    const { username, email } = newIdentity('badrole');
    const error = await runError('create-user', { username, email, password: newPassword(), role: 'wizard' });
    expect(error.code).toBe('unknown_role');
    expect(error.hint).toContain('subscriber');
    expect(await usernameExists(username)).toBe(false);
  });

  it('refuses an invalid email', async () => {
    const { username } = newIdentity('bademail');
    const error = await runError('create-user', { username, email: 'not-an-email', password: newPassword() });
    expect(error.code).toBe('invalid_email');
    expect(await usernameExists(username)).toBe(false);
  });

  it.each([
    ['too short', 'Sh0rt-pw!'],
    ['too few different characters', 'abababababababab'],
    ['surrounding whitespace', ' Long-enough-passw0rd '],
    ['a backslash', 'Long-enough\\passw0rd'],
  ])('refuses a weak password (%s) without writing anything', async (_why, password) => {
    const { username, email } = newIdentity('weak');
    const error = await runError('create-user', { username, email, password: secret(password) });
    expect(error.code).toBe('weak_password');
    expect(error.hint).toContain('12');
    expect(await usernameExists(username)).toBe(false);
  });

  it('refuses a password that contains the username', async () => {
    const { username, email } = newIdentity('self');
    const error = await runError('create-user', { username, email, password: secret(`${username}-2024!`) });
    expect(error.code).toBe('weak_password');
    expect(error.message).toContain('username');
    expect(await usernameExists(username)).toBe(false);
  });
});
