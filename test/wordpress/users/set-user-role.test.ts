import { afterAll, describe, expect, it } from 'vitest';
import { testContext } from '../../helpers/site.js';
import { expectNoSecretsLeaked, makeUser, readUser, runError, runOk } from './helpers.js';

describe('set-user-role', () => {
  afterAll(() => expectNoSecretsLeaked());

  it('replaces the user’s roles by default', async () => {
    const user = await makeUser({ roles: ['author'] });
    const result = await runOk('set-user-role', { id: user.id, role: 'editor' });
    expect(result).toEqual({ id: user.id, username: user.username, roles: ['editor'], previous_roles: ['author'] });
    expect((await readUser(user.id)).roles).toEqual(['editor']);
  });

  it('adds the role to the others with keep_other_roles', async () => {
    const user = await makeUser({ roles: ['author'] });
    const result = await runOk('set-user-role', { id: user.id, role: 'contributor', keep_other_roles: true });
    expect([...result.roles].sort()).toEqual(['author', 'contributor']);
    expect([...(await readUser(user.id)).roles].sort()).toEqual(['author', 'contributor']);
  });

  it('accepts a role’s label in place of its slug', async () => {
    const user = await makeUser();
    expect((await runOk('set-user-role', { id: user.id, role: 'Editor' })).roles).toEqual(['editor']);
  });

  it('refuses an unknown role, listing the valid ones, and changes nothing', async () => {
    const user = await makeUser({ roles: ['author'] });
    const error = await runError('set-user-role', { id: user.id, role: 'superhero' });
    expect(error.code).toBe('unknown_role');
    expect(error.hint).toContain('administrator, editor, author, contributor, subscriber');
    expect((await readUser(user.id)).roles).toEqual(['author']);
  });

  it('refuses to take administrator away from the account the toolkit is signed in as', async () => {
    const me = await testContext().client.connect();
    const error = await runError('set-user-role', { id: me.id, role: 'editor' });
    expect(error.code).toBe('cannot_demote_self');
    expect((await readUser(me.id)).roles).toEqual(['administrator']);
    // Adding a role would keep administrator, but WordPress refuses any self-assigned role without edit_users.
    const added = await runError('set-user-role', { id: me.id, role: 'editor', keep_other_roles: true });
    expect(added.code).toBe('role_not_allowed');
    expect((await readUser(me.id)).roles).toEqual(['administrator']);
    expect(await runOk('set-user-role', { id: me.id, role: 'administrator' })).toMatchObject({
      roles: ['administrator'],
    });
  });

  it('says when the user does not exist', async () => {
    expect(await runError('set-user-role', { id: 987654, role: 'editor' })).toMatchObject({ code: 'user_not_found' });
  });
});
