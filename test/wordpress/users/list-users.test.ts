import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../src/tools/users/records.js';
import { testContext, wp } from '../../helpers/site.js';
import { ascending, expectCursorErrors, idsOnce, walk } from '../../helpers/listing.js';
import { expectNoSecretsLeaked, makeUser, makeUsers, runError, runOk } from './helpers.js';

interface Listed {
  total: number;
  items: UserRecord[];
  note?: string;
}

interface RawUser {
  id: number;
  roles: string[];
  registered_date: string;
}

/** Every user, read independently of the tool (ordered by id, so paging is stable). */
const allUsers = () =>
  wp().all<RawUser>('/wp/v2/users', { context: 'edit', orderby: 'id', _fields: 'id,roles,registered_date' });
const ids = (items: Array<{ id: number }>) => items.map((u) => u.id).sort((a, b) => a - b);

describe('list-users', () => {
  // More than one page of 100, most of them registered in the same few seconds (ties).
  beforeAll(async () => {
    const existing = await wp().count('/wp/v2/users');
    await makeUsers(Math.max(0, 130 - existing), 'bulk');
  }, 120_000);
  afterAll(() => expectNoSecretsLeaked());

  it('following next_cursor lists every user once, in id order, as compact records', async () => {
    const first = await runOk<Listed>('list-users');
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(16_000);
    const { items, pages } = await walk<UserRecord>('list-users');
    const result = { ...first, items };
    const independent = await allUsers();
    expect(independent.length).toBeGreaterThan(100);
    expect(pages.length).toBeGreaterThan(1);
    expect(result.total).toBe(independent.length);
    expect(idsOnce(items)).toEqual(ascending(independent.map((u) => u.id)));
    for (const item of result.items) {
      expect(Object.keys(item).sort()).toEqual([
        'disabled',
        'email',
        'id',
        'last_login',
        'name',
        'registered_date',
        'roles',
        'username',
      ]);
    }
    expect(result.items.find((u) => u.id === 1)).toMatchObject({ roles: ['administrator'], disabled: false });
    // No account hidden, no unknown disabled state: only what an "unknown" last login means (#60.9).
    expect(result.note ?? '').not.toMatch(/may_edit|disabled is null/);
  });

  it('full adds bio, url and names under the same field names', async () => {
    const user = await makeUser({ name: 'Full Record' });
    await wp().post(`/wp/v2/users/${user.id}`, { description: 'Writes about owls', first_name: 'Fulla' });
    const [item] = (await runOk<Listed>('list-users', { search: user.username, full: true })).items;
    expect(item).toMatchObject({ id: user.id, username: user.username, bio: 'Writes about owls', first_name: 'Fulla' });
  });

  it('refuses malformed, foreign and other-filter cursors, and limits outside 1–500', async () => {
    await expectCursorErrors('list-users', 'get-cms-tags', { role: 'editor' });
  });

  it('filters by role', async () => {
    const result = await walk<UserRecord>('list-users', { role: 'editor' });
    const editors = (await allUsers()).filter((u) => u.roles.includes('editor'));
    expect(editors.length).toBeGreaterThan(0);
    expect(ids(result.items)).toEqual(ids(editors));
  });

  it('refuses an unknown role, listing the site’s roles', async () => {
    const error = await runError('list-users', { role: 'pirate' });
    expect(error.code).toBe('unknown_role');
    expect(error.hint).toContain('editor');
  });

  it('searches names and email addresses by substring', async () => {
    const user = await makeUser({ name: 'Zebediah Quuxfield' });
    expect(ids((await runOk<Listed>('list-users', { search: 'quuxfie' })).items)).toEqual([user.id]);
    expect(ids((await runOk<Listed>('list-users', { search: user.email })).items)).toEqual([user.id]);
    expect((await runOk<Listed>('list-users', { search: 'no-such-user-anywhere' })).total).toBe(0);
  });

  it('shows disabled accounts', async () => {
    const user = await makeUser();
    await runOk('disable-user', { id: user.id });
    const result = await runOk<Listed>('list-users', { search: user.username });
    expect(result.items).toEqual([expect.objectContaining({ id: user.id, disabled: true })]);
  });

  it('keeps only users registered after registered_after, across pages', async () => {
    const independent = await allUsers();
    // A cutoff inside the seeded users' range (2024–2026), which leaves >100 newer users. Seeded
    // users are back-dated before the admin's install date; users made by tests (today) are not.
    const installed = independent.find((u) => u.id === 1)?.registered_date ?? '';
    const seededDates = [...new Set(independent.map((u) => u.registered_date))].filter((d) => d < installed).sort();
    const cutoff = seededDates[Math.floor(seededDates.length / 2)] as string;
    const expected = independent.filter((u) => Date.parse(u.registered_date) > Date.parse(cutoff));
    expect(expected.length).toBeGreaterThan(100);

    const first = await runOk<Listed>('list-users', { registered_after: cutoff });
    const result = await walk<UserRecord>('list-users', { registered_after: cutoff });

    expect(first.total).toBe(expected.length);
    expect(idsOnce(result.items)).toEqual(ascending(expected.map((u) => u.id)));
    // Strictly after: the user registered at the cutoff itself is not included.
    expect(result.items.some((u) => u.registered_date === cutoff)).toBe(false);
  });

  it('accepts a date alone and offsets, and combines with role', async () => {
    const independent = await allUsers();
    const expected = independent.filter(
      (u) => u.roles.includes('author') && Date.parse(u.registered_date) > Date.parse('2025-01-01T00:00:00Z'),
    );
    const result = await walk<UserRecord>('list-users', { registered_after: '2025-01-01', role: 'author' });
    expect(ids(result.items)).toEqual(ids(expected));
    const shifted = await walk<UserRecord>('list-users', {
      registered_after: '2025-01-01T02:00:00+02:00',
      role: 'author',
    });
    expect(ids(shifted.items)).toEqual(ids(expected));
  });

  it('stops reading at the cutoff instead of fetching every page', async () => {
    const { client } = testContext();
    await client.connect();
    const before = client.stats.requests;
    const result = await runOk<Listed>('list-users', { registered_after: '2999-01-01' });
    expect(result.total).toBe(0);
    expect(client.stats.requests - before).toBe(1);
  });

  it.each(['yesterday', '2024-02-30', '2024-13-01', '01/02/2024'])('refuses the date %s', async (value) => {
    const error = await runError('list-users', { registered_after: value });
    expect(error.code).toBe('invalid_date');
    expect(error.hint).toContain('2024-05-01');
  });
});
