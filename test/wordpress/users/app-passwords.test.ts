import { afterAll, describe, expect, it } from 'vitest';
import { type CallReview, findTool, reviewCall } from '../../../src/call/index.js';
import { testContext, testSite, unique, wp } from '../../helpers/site.js';
import { appPasswordStatus, expectNoSecretsLeaked, makeUser, runError, runOk, secret } from './helpers.js';

afterAll(() => expectNoSecretsLeaked());

async function appPassword(
  userId: number,
  name = unique('laptop'),
): Promise<{ uuid: string; name: string; password: string }> {
  const created = await wp().post<{ uuid: string; password: string }>(`/wp/v2/users/${userId}/application-passwords`, {
    name,
  });
  return { uuid: created.uuid, name, password: secret(created.password) };
}
const uuids = async (userId: number) =>
  (await wp().get<Array<{ uuid: string }>>(`/wp/v2/users/${userId}/application-passwords`)).map((p) => p.uuid).sort();

describe('list-app-passwords', () => {
  it('lists name, dates and last ip of each password, never the password', async () => {
    const user = await makeUser({ roles: ['editor'] });
    const used = await appPassword(user.id, unique('ci deploy'));
    const idle = await appPassword(user.id, unique('old plugin'));
    expect((await appPasswordStatus(user.username, used.password)).status).toBe(200);

    const result = await runOk('list-app-passwords', { user_id: user.id });
    expect(result).toMatchObject({ user_id: user.id, username: user.username, total: 2 });
    expect(result.items).toEqual([
      {
        uuid: used.uuid,
        name: used.name,
        created: expect.any(String),
        last_used: expect.any(String),
        last_ip: '127.0.0.1',
      },
      { uuid: idle.uuid, name: idle.name, created: expect.any(String), last_used: null, last_ip: null },
    ]);
    // Core's dates are UTC without a zone; the answer says so, and they are about now.
    for (const date of [result.items[0].created, result.items[0].last_used, result.items[1].created]) {
      expect(date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Math.abs(Date.parse(date) - Date.now())).toBeLessThan(10 * 60_000);
    }
  });

  it('marks the password the toolkit signs in with', async () => {
    const me = await wp().get<{ id: number }>('/wp/v2/users/me');
    const result = await runOk('list-app-passwords', { user_id: me.id });
    expect(result.items.filter((item: { used_by_this_toolkit?: boolean }) => item.used_by_this_toolkit)).toHaveLength(
      1,
    );
  });
});

describe('revoke-app-passwords', () => {
  it('revokes one: a REST request with it gets 401, the user’s other password still works', async () => {
    const user = await makeUser({ roles: ['author'] });
    const [stolen, kept] = [await appPassword(user.id), await appPassword(user.id)];
    const review = (await reviewCall(findTool('revoke-app-passwords')!, testContext(), {
      user_id: user.id,
      uuid: stolen.uuid,
    })) as CallReview;
    expect(review).toEqual({
      approval: 'required',
      summary: `revoke 1 application password(s) of ${user.username}: "${stolen.name}" (last used never) (cannot be undone; integrations using them stop working)`,
    });

    const result = await runOk('revoke-app-passwords', { user_id: user.id, uuid: stolen.uuid });
    expect(result).toEqual({
      id: user.id,
      username: user.username,
      revoked: [{ uuid: stolen.uuid, name: stolen.name }],
      count: 1,
    });
    expect((await appPasswordStatus(user.username, stolen.password)).status).toBe(401);
    expect((await appPasswordStatus(user.username, kept.password)).status).toBe(200);
    expect(await uuids(user.id)).toEqual([kept.uuid]);
  });

  it('without uuid revokes all of the user’s passwords; the account stays usable', async () => {
    const user = await makeUser({ roles: ['author'] });
    const all = [await appPassword(user.id), await appPassword(user.id)];
    const result = await runOk('revoke-app-passwords', { user_id: user.id });
    expect(result.count).toBe(2);
    for (const p of all) expect((await appPasswordStatus(user.username, p.password)).status).toBe(401);
    expect(await uuids(user.id)).toEqual([]);
    const fresh = await appPassword(user.id);
    expect((await appPasswordStatus(user.username, fresh.password)).status).toBe(200);
  });

  it('refuses the password the toolkit signs in with, alone or in "all", with a clear error', async () => {
    const me = await wp().get<{ id: number }>('/wp/v2/users/me');
    const own = await wp().get<{ uuid: string }>('/wp/v2/users/me/application-passwords/introspect');
    const before = await uuids(me.id);
    // The review already finds the refusal: no one is asked about it.
    const tool = findTool('revoke-app-passwords')!;
    expect(await reviewCall(tool, testContext(), { user_id: me.id, uuid: own.uuid })).toMatchObject({
      approval: 'fails',
      error: { code: 'own_app_password' },
    });

    expect(await runError('revoke-app-passwords', { user_id: me.id, uuid: own.uuid })).toMatchObject({
      code: 'own_app_password',
      message: expect.stringContaining('lock the toolkit out'),
      hint: expect.stringContaining('another account'),
    });
    expect(await runError('revoke-app-passwords', { user_id: me.id })).toMatchObject({
      code: 'own_app_password',
      hint: expect.stringContaining('give their uuids'),
    });
    expect(await uuids(me.id)).toEqual(before);
    const { username, appPassword: password } = testSite();
    expect((await appPasswordStatus(username, password)).status).toBe(200);
  });

  it('revoking another of the toolkit account’s own passwords asks no one; the toolkit’s own keeps working', async () => {
    const me = await wp().get<{ id: number; username: string }>('/wp/v2/users/me', { context: 'edit' });
    const old = await appPassword(me.id, unique('my old laptop'));
    const tool = findTool('revoke-app-passwords')!;
    expect(await reviewCall(tool, testContext(), { user_id: me.id, uuid: old.uuid })).toEqual({
      approval: 'none',
      summary: expect.stringContaining(`revoke 1 application password(s) of ${me.username}: "${old.name}"`),
    });
    const result = await runOk('revoke-app-passwords', { user_id: me.id, uuid: old.uuid });
    expect(result.revoked).toEqual([{ uuid: old.uuid, name: old.name }]);
    expect((await appPasswordStatus(me.username, old.password)).status).toBe(401);
    const { username, appPassword: password } = testSite();
    expect((await appPasswordStatus(username, password)).status).toBe(200);
  });

  it('the plugin refuses it too when a program calls core’s routes with that password', async () => {
    const own = await wp().get<{ uuid: string }>('/wp/v2/users/me/application-passwords/introspect');
    for (const path of [`/wp/v2/users/me/application-passwords/${own.uuid}`, '/wp/v2/users/me/application-passwords']) {
      const code = await wp()
        .delete(path)
        .then(
          () => 'revoked',
          (err: { code?: string }) => err.code,
        );
      expect(code, path).toBe('cms_admin_own_app_password');
    }
    const { username, appPassword: password } = testSite();
    expect((await appPasswordStatus(username, password)).status).toBe(200);
  });

  it('an unknown uuid or user is a clear error', async () => {
    const user = await makeUser();
    expect(
      await runError('revoke-app-passwords', { user_id: user.id, uuid: '00000000-0000-4000-8000-000000000000' }),
    ).toMatchObject({
      code: 'app_password_not_found',
    });
    expect(await runError('list-app-passwords', { user_id: 999999 })).toMatchObject({ code: 'user_not_found' });
  });
});
