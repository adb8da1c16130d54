import { afterAll, describe, expect, it } from 'vitest';
import { findTool, reviewCall } from '../../../src/call/index.js';
import { testContext } from '../../helpers/site.js';
import {
  expectNoSecretsLeaked,
  formLogin,
  makeUser,
  newIdentity,
  newPassword,
  readUser,
  runError,
  runOk,
} from './helpers.js';

describe('update-user', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('changes only the given fields and says which changed', async () => {
    const user = await makeUser({ name: 'Old Name' });
    const before = await readUser(user.id);
    const { email } = newIdentity('moved');

    const result = await runOk('update-user', { id: user.id, name: 'New Name', email, bio: 'Hello' });

    expect(result).toMatchObject({ id: user.id, username: user.username, name: 'New Name', email, bio: 'Hello' });
    expect([...result.changed].sort()).toEqual(['bio', 'email', 'name']);
    const after = await readUser(user.id);
    expect(after).toMatchObject({
      name: 'New Name',
      email,
      description: 'Hello',
      roles: before.roles,
      url: before.url,
    });
  });

  it('clears the bio and resets the display name to the username with ""', async () => {
    const user = await makeUser({ name: 'Someone' });
    await runOk('update-user', { id: user.id, bio: 'to be removed' });
    const result = await runOk('update-user', { id: user.id, name: '', bio: '' });
    expect(result).toMatchObject({ name: user.username, bio: '', changed: ['name', 'bio'] });
    expect(await readUser(user.id)).toMatchObject({ name: user.username, description: '' });
  });

  it('reports nothing changed when the values are the same', async () => {
    const user = await makeUser({ name: 'Same' });
    expect((await runOk('update-user', { id: user.id, name: 'Same' })).changed).toEqual([]);
  });

  it('changes the password, never echoing it, and the new one logs in', async () => {
    const user = await makeUser();
    const password = newPassword();
    const result = await runOk('update-user', { id: user.id, password });
    expect(result.changed).toEqual(['password']);
    expect((await formLogin(user.username, password)).ok).toBe(true);
    expect((await formLogin(user.username, user.password)).ok).toBe(false);
  });

  it('needs approval for a new email or a password, and the prompt says what changes, read from the site', async () => {
    const tool = findTool('update-user');
    if (!tool) throw new Error('update-user is not registered');
    const user = await makeUser();
    const { email: current } = await readUser(user.id);
    const review = (params: Record<string, unknown>) => reviewCall(tool, testContext(), { id: user.id, ...params });
    expect(await review({ name: 'x', bio: 'y' })).toMatchObject({ approval: 'none' });
    expect(await review({ email: current })).toMatchObject({ approval: 'none' });
    expect(await review({ email: 'new@example.com' })).toEqual({
      approval: 'required',
      summary: `change ${user.username}'s email from ${current} to new@example.com`,
    });
    expect(await review({ password: 'whatever-long-1' })).toEqual({
      approval: 'required',
      summary: `set a new password for ${user.username} (cannot be undone)`,
    });
    // What else the same call changes is in the question too: the approval covers the whole call.
    expect(await review({ email: 'new@example.com', name: 'Site Administrator', bio: 'b' })).toEqual({
      approval: 'required',
      summary: `change ${user.username}'s email from ${current} to new@example.com; also change ${user.username}'s display name to "Site Administrator" and bio`,
    });
  });

  it('refuses a weak password without changing anything', async () => {
    const user = await makeUser({ name: 'Keep' });
    const error = await runError('update-user', { id: user.id, name: 'Changed', password: user.username });
    expect(error.code).toBe('weak_password');
    expect((await readUser(user.id)).name).toBe('Keep');
    expect((await formLogin(user.username, user.password)).ok).toBe(true);
  });

  it('refuses an invalid email and one another user has', async () => {
    const user = await makeUser();
    const other = await makeUser();
    expect(await runError('update-user', { id: user.id, email: 'nope' })).toMatchObject({ code: 'invalid_email' });
    expect(await runError('update-user', { id: user.id, email: '' })).toMatchObject({ code: 'invalid_email' });
    expect(await runError('update-user', { id: user.id, email: other.email })).toMatchObject({
      code: 'email_in_use',
      details: { id: other.id },
    });
    expect((await readUser(user.id)).email).toBe(user.email);
  });

  it('needs at least one field, and an existing user', async () => {
    const user = await makeUser();
    expect(await runError('update-user', { id: user.id })).toMatchObject({ code: 'no_changes', details: { formerly: 'nothing_to_update' } });
    expect(await runError('update-user', { id: 987654, name: 'x' })).toMatchObject({
      code: 'user_not_found',
      hint: expect.stringContaining('list-users'),
    });
  });
});
