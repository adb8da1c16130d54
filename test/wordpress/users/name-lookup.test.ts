import { describe, expect, it } from 'vitest';
import { call, testSite, unique, wp } from '../../helpers/site.js';
import { makeAppPassword, makeUser, newPassword, readUser } from './helpers.js';

/**
 * #58.4 on every WordPress the suite runs (7.1; CI also 6.1 and 6.8, where /wp/v2/users ignores
 * `search_columns` and searches a string with "@" in emails only): account 28's login is
 * `carol@example.test`; account 29, a subscriber, sets that address as its own email over
 * /wp/v2/users/me. `set-user-role id=carol@example.test role=editor` must not target 29 silently:
 * it is name_ambiguous, listing both; neither changes. test/cli/names-lists.test.ts runs it through
 * `cms-admin invoke`.
 */
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

async function setOwnEmail(user: { id: number; username: string }, email: string) {
  const appPassword = await makeAppPassword(user.id);
  const response = await fetch(`${testSite().url}/wp-json/wp/v2/users/me`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${user.username}:${appPassword}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(response.status).toBe(200);
}

describe('a login that is another account’s email', () => {
  it('is name_ambiguous with both accounts as candidates; nothing is written', async () => {
    const login = `${slugOf(unique('carol'))}@example.test`;
    const carol = await wp().post<{ id: number }>('/wp/v2/users', { username: login, email: `${slugOf(unique('carol-own'))}@example.test`, password: newPassword(), roles: ['author'] });
    const other = await makeUser({ prefix: 'subscriber29' });
    await setOwnEmail(other, login);
    expect((await readUser(other.id)).email).toBe(login);

    const out = await call('set-user-role', { id: login, role: 'editor' });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.code).toBe('name_ambiguous');
    expect((out.error.details as { candidates: number[] }).candidates.sort()).toEqual([carol.id, other.id].sort());
    expect([(await readUser(carol.id)).roles, (await readUser(other.id)).roles]).toEqual([['author'], ['subscriber']]);
  });

  it('a login that is an email and no one else’s: that account; an email: its account', async () => {
    const login = `${slugOf(unique('dora'))}@example.test`;
    const dora = await wp().post<{ id: number }>('/wp/v2/users', { username: login, email: `${slugOf(unique('dora-own'))}@example.test`, password: newPassword() });
    expect((await call('set-user-role', { id: login, role: 'author' })).ok).toBe(true);
    expect((await readUser(dora.id)).roles).toEqual(['author']);
    const eve = await makeUser({ prefix: 'eve' });
    expect((await call('set-user-role', { id: eve.email, role: 'author' })).ok).toBe(true);
    expect((await readUser(eve.id)).roles).toEqual(['author']);
  });
});
