import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import type { ToolContext } from '../../../src/call/index.js';
import { restOnlyContext, testSite, unique, wp } from '../../helpers/site.js';
import { expectNoSecretsLeaked, makeUser, runIn, secret } from './helpers.js';

/**
 * #36: "who has application passwords?" is one call (list-app-passwords without user_id),
 * paged like every list tool, never with a secret; with the companion plugin in a handful of
 * requests whatever the number of accounts, without it by asking each account (bounded a call).
 */
afterAll(() => expectNoSecretsLeaked());

type Row = { user_id: number; username: string; uuid: string; name: string; password?: unknown };

async function appPassword(userId: number, name = unique('sweep')) {
  const created = await wp().post<{ uuid: string; password: string }>(`/wp/v2/users/${userId}/application-passwords`, {
    name,
  });
  secret(created.password);
  return created.uuid;
}

/** Every account's passwords as the site holds them (read one account at a time, straight through REST). */
async function siteWide(): Promise<Map<string, number>> {
  const users = await wp().all<{ id: number }>('/wp/v2/users', { context: 'edit', _fields: 'id' });
  const found = new Map<string, number>();
  for (const user of users) {
    const items = await wp().get<Array<{ uuid: string }>>(`/wp/v2/users/${user.id}/application-passwords`, {
      _fields: 'uuid',
    });
    for (const item of items) found.set(item.uuid, user.id);
  }
  return found;
}

/** Follows next_cursor to the end (bounded), returning every row and the number of calls. */
async function sweep(context: ToolContext, limit?: number) {
  const rows: Row[] = [];
  let cursor: string | undefined;
  let calls = 0;
  for (; calls < 50; ) {
    const outcome = await runIn(context, 'list-app-passwords', { ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const page = outcome.result as { items: Row[]; next_cursor: string | null; total?: number };
    calls++;
    rows.push(...page.items);
    cursor = page.next_cursor ?? undefined;
    if (!cursor) return { rows, calls, last: page };
  }
  throw new Error('the cursor never ended');
}

function expectSameAsSite(rows: Row[], site: Map<string, number>) {
  expect(new Map(rows.map((row) => [row.uuid, row.user_id]))).toEqual(site);
  expect(rows.length).toBe(site.size); // each once
  for (const row of rows) {
    expect(Object.keys(row).sort()).toEqual(
      expect.arrayContaining(['created', 'last_ip', 'last_used', 'name', 'user_id', 'username', 'uuid']),
    );
    expect(row).not.toHaveProperty('password');
  }
}

describe('list-app-passwords without user_id', () => {
  it('lists every account’s passwords in one call, in a few requests, with usernames and no secret', async () => {
    const [alice, bob] = [await makeUser({ roles: ['editor'] }), await makeUser({ roles: ['author'] })];
    const mine = [await appPassword(alice.id), await appPassword(alice.id), await appPassword(bob.id)];
    const site = await siteWide();
    const context = createContext(testSite());
    await context.client.connect();
    const before = context.client.stats.requests;
    const { rows, calls, last } = await sweep(context);
    expect(calls).toBe(1);
    expect(last.total).toBe(site.size);
    expectSameAsSite(rows, site);
    for (const uuid of mine) expect(rows.find((row) => row.uuid === uuid)).toBeDefined();
    expect(rows.find((row) => row.uuid === mine[2])).toMatchObject({ user_id: bob.id, username: bob.username });
    // The plugin's route answers for every account at once: not one request per user.
    expect(context.client.stats.requests - before).toBeLessThanOrEqual(5);
  });

  it('pages with a cursor: every password once, in the same order every time', async () => {
    const site = await siteWide();
    const { rows, calls } = await sweep(createContext(testSite()), 2);
    expect(calls).toBe(Math.ceil(site.size / 2));
    expectSameAsSite(rows, site);
  });

  it('marks the password the toolkit signs in with', async () => {
    const own = await wp().get<{ uuid: string }>('/wp/v2/users/me/application-passwords/introspect');
    const { rows } = await sweep(createContext(testSite()));
    expect(rows.filter((row: Row & { used_by_this_toolkit?: boolean }) => row.used_by_this_toolkit)).toEqual([
      expect.objectContaining({ uuid: own.uuid }),
    ]);
  });

  it('without the companion plugin asks each account (bounded a call) and finds the same', async () => {
    for (const user of [await makeUser(), await makeUser()]) {
      await appPassword(user.id);
      await appPassword(user.id);
    }
    const site = await siteWide();
    const { rows, last } = await sweep(restOnlyContext());
    expectSameAsSite(rows, site);
    expect(last.total).toBe(site.size);
    // Pages end between accounts; the cursor carries what was found, so the last page says the total.
    const paged = await sweep(restOnlyContext(), 2);
    expect(paged.calls).toBeGreaterThan(1);
    expectSameAsSite(paged.rows, site);
    expect(paged.last.total).toBe(site.size);
  });
});
