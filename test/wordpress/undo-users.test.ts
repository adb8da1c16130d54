import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { findTool, reviewCall } from '../../src/call/index.js';
import { callOkIn, testSite, wp } from '../helpers/site.js';
import { makeUser, newIdentity, newPassword, readUser } from './users/helpers.js';

function journalled() {
  const journal = memoryJournal();
  return { context: createContext(testSite(), { journal }), journal };
}

const fields = (u: Record<string, any>) => ({
  email: u.email,
  name: u.name,
  bio: u.description,
  roles: [...u.roles].sort(),
  disabled: u.cms_disabled,
});

describe('undo of user writes', () => {
  it('create-user → undo deletes the account; the journal holds no password', async () => {
    const { context, journal } = journalled();
    const password = newPassword();
    const made = await callOkIn(context, 'create-user', { ...newIdentity('undo_new'), password, role: 'author' });
    const [entry] = await journal.entries();
    expect(JSON.stringify(entry)).not.toContain(password);
    expect(entry).toMatchObject({ tool: 'create-user', reversible: true, params: { password: '[REDACTED]' } });
    const report = await undoChange(context, journal);
    expect(report.restored).toEqual([expect.stringContaining(`user ${made.id}`)]);
    await expect(readUser(made.id)).rejects.toMatchObject({ status: 404 });
    // Deleting an account cannot be taken back: the undo entry says so.
    const undoEntry = (await journal.entries())[1]!;
    expect(undoEntry).toMatchObject({ reversible: false, why_not: expect.stringContaining('cannot be recreated') });
  });

  it('update-user, set-user-role, disable-user, enable-user → undo restores each, newest first', async () => {
    const { context, journal } = journalled();
    const user = await makeUser({ prefix: 'undo_upd', roles: ['author'], name: 'Before Name' });
    await wp().post(`/wp/v2/users/${user.id}`, { description: 'old bio' });
    const before = fields(await readUser(user.id));
    await callOkIn(context, 'update-user', {
      id: user.id,
      email: `x${user.email}`,
      name: 'After Name',
      bio: 'new bio',
    });
    await callOkIn(context, 'set-user-role', { id: user.id, role: 'editor', keep_other_roles: true });
    await callOkIn(context, 'disable-user', { id: user.id, reason: 'test' });
    expect(fields(await readUser(user.id))).toMatchObject({
      roles: ['author', 'editor'],
      disabled: true,
      name: 'After Name',
    });
    for (let i = 0; i < 3; i++) expect((await undoChange(context, journal)).conflicts).toEqual([]);
    expect(fields(await readUser(user.id))).toEqual(before);
    // enable-user, then its undo disables again.
    await wp().post(`/cms-admin/v1/users/${user.id}/disable`, { reason: 'x' });
    await callOkIn(context, 'enable-user', { id: user.id });
    await undoChange(context, journal);
    expect((await readUser(user.id)).cms_disabled).toBe(true);
  });

  it('a reset link given in the result never reaches the journal; the entry says it cannot be undone', async () => {
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal, secretsTo: 'result' });
    const user = await makeUser({ prefix: 'undo_reset' });
    const result = await callOkIn(context, 'reset-user-password', { id: user.id, delivery: 'link' });
    const key = /key=([^&]+)/.exec(result.reset_link)![1]!;
    const text = JSON.stringify(await journal.entries());
    expect(text).not.toContain(key);
    expect((await journal.entries())[0]).toMatchObject({
      reversible: false,
      why_not: expect.stringContaining('cannot be taken back'),
    });
  });

  it('the approval question of a change that cannot be undone says so', async () => {
    const context = journalled().context;
    const [user, heir] = [
      await makeUser({ prefix: 'undo_q' }),
      await makeUser({ prefix: 'undo_heir', roles: ['author'] }),
    ];
    const calls: Array<[string, Record<string, unknown>]> = [
      ['reset-user-password', { id: user.id }],
      ['delete-user', { id: user.id, reassign_to: heir.id }],
      ['update-user', { id: user.id, password: newPassword() }],
    ];
    for (const [tool, params] of calls) {
      const review = await reviewCall(findTool(tool)!, context, params);
      expect(review, tool).toMatchObject({
        approval: 'required',
        summary: expect.stringContaining('cannot be undone'),
      });
    }
  });

  it('update-user with a password is journalled as not reversible; undoing it is refused with the reason', async () => {
    const { context, journal } = journalled();
    const user = await makeUser({ prefix: 'undo_pw' });
    const password = newPassword();
    await callOkIn(context, 'update-user', { id: user.id, password });
    const [entry] = await journal.entries();
    expect(JSON.stringify(entry)).not.toContain(password);
    expect(entry).toMatchObject({ reversible: false, why_not: expect.stringContaining('password') });
    await expect(undoChange(context, journal)).rejects.toMatchObject({ code: 'change_not_reversible' });
  });
});
