import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { makeAppPassword, makeUser, readUser, wpPhp } from '../wordpress/users/helpers.js';
import { companion, run, useFaultProxy } from './fault-setup.js';
import { meet } from './meet.js';
import { journaled } from './undo-engine.js';

/**
 * Issue #59, finding 9: set-users-role changed an account another administrator had just given
 * another role (between set-users-role's read and its write), said "changed, was contributor",
 * and the other administrator's choice was lost. The write is held at the proxy while the other
 * administrator acts; the site is read back. The role is one of the test's own, standing in for
 * `contributor` (its capabilities), so the seeded contributors stay out of it.
 */
useFaultProxy();

/** set-users-role's write: the companion plugin's bulk route, or /batch/v1 without it. */
const ROLE_WRITES = { method: 'POST', path: /\/cms-admin\/v1\/users\/bulk-roles|\/batch\/v1/ };

describe('set-users-role meets another administrator (#59.9)', { timeout: 120_000 }, () => {
  const role = `cms_race_${unique('r').replace(/[^a-z0-9]/gi, '').toLowerCase()}`;
  beforeAll(() => wpPhp(`add_role('${role}', 'Contributor (race)', get_role('contributor')->capabilities);`));
  afterAll(() => wpPhp(`remove_role('${role}');`));

  it('an account made editor meanwhile is skipped and named, keeps editor, and the undo leaves it so', async () => {
    const accounts = [await makeUser({ roles: [role] }), await makeUser({ roles: [role] }), await makeUser({ roles: [role] })];
    const target = accounts[1]!;
    const admin = await makeUser({ prefix: 'otheradmin', roles: ['administrator'] });
    const other = createContext({ url: testSite().url, username: admin.username, appPassword: await makeAppPassword(admin.id) });
    const journal = memoryJournal();
    const context = journaled(journal, companion());
    try {
      const [ours, theirs] = await meet(
        ROLE_WRITES,
        () => run(context, 'set-users-role', { from_role: role, to_role: 'author' }),
        () => run(other, 'set-user-role', { id: target.id, role: 'editor' }),
      );
      expect(theirs).toMatchObject({ ok: true });
      if (!ours.ok) throw new Error(JSON.stringify(ours.error));
      const answer = ours.result as { counts: Record<string, number>; accounts: Array<{ id: number; result: string; reason?: string }> };
      // Read back from WordPress: the other administrator's choice stands, the rest are authors.
      expect((await readUser(target.id)).roles).toEqual(['editor']);
      for (const a of accounts.filter((a) => a !== target)) expect((await readUser(a.id)).roles).toEqual(['author']);
      // The answer says what happened: two changed, the third skipped with what it has now.
      expect(answer.counts).toMatchObject({ changed: 2, skipped: 1 });
      expect(answer.accounts).toContainEqual(expect.objectContaining({ id: target.id, result: 'skipped', reason: expect.stringContaining('editor') }));

      // The journal holds what was done: the undo gives the two their role back and leaves the editor.
      const report = await undoChange(context, journal);
      expect(report.conflicts).toEqual([]);
      expect((await readUser(target.id)).roles).toEqual(['editor']);
      for (const a of accounts.filter((a) => a !== target)) expect((await readUser(a.id)).roles).toEqual([role]);
    } finally {
      for (const a of [...accounts, admin]) await wp().delete(`/wp/v2/users/${a.id}`, { force: true, reassign: 1 });
    }
  });

  it('import-users with update_existing: the role of an account made editor meanwhile stays editor, its row says so', async () => {
    const account = await makeUser({ roles: [role], name: 'Before Import' });
    const admin = await makeUser({ prefix: 'otheradmin', roles: ['administrator'] });
    const other = createContext({ url: testSite().url, username: admin.username, appPassword: await makeAppPassword(admin.id) });
    const journal = memoryJournal();
    const context = journaled(journal, companion());
    const csv = `user_login,user_email,display_name,role\n${account.username},${account.email},After Import,author\n`;
    try {
      const [ours, theirs] = await meet(
        ROLE_WRITES,
        () => run(context, 'import-users', { csv, update_existing: true }),
        () => run(other, 'set-user-role', { id: account.id, role: 'editor' }),
      );
      expect(theirs).toMatchObject({ ok: true });
      if (!ours.ok) throw new Error(JSON.stringify(ours.error));
      const row = (ours.result as { rows: Array<{ result: string; reason?: string }> }).rows[0];
      // The name went with the batch (held until the other administrator acted); the role only if still as read.
      expect(await readUser(account.id)).toMatchObject({ name: 'After Import', roles: ['editor'] });
      expect(row).toMatchObject({ result: 'updated', reason: expect.stringMatching(/its role was not: changed since it was read: it has editor now/) });
      // The undo gives the name back and leaves the other administrator's role.
      expect((await undoChange(context, journal)).conflicts).toEqual([]);
      expect(await readUser(account.id)).toMatchObject({ name: 'Before Import', roles: ['editor'] });
    } finally {
      for (const a of [account, admin]) await wp().delete(`/wp/v2/users/${a.id}`, { force: true, reassign: 1 });
    }
  });
});
