import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import type { ToolContext } from '../../../src/call/index.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { changeRoles, deleteAccounts } from '../../../src/tools/users/account-bulk.js';
import { callOkIn, testSite, unique, withoutCompanion, wp } from '../../helpers/site.js';
import { wpPhp } from './helpers.js';

/**
 * Issue #61's request counts for bulk account work at the floor, through the companion plugin's
 * bulk routes (0.7.0): set-users-role of 200 accounts in ≤ 10 requests (the journal's reads
 * batched with the write), the undo of a 200-row import in ≤ 15; a route given a tiny time
 * budget answers part, and the client sends the rest until the job is whole (read back from
 * WordPress). Without the plugin the old paths still do the same job.
 */

const ACCOUNTS = 200;

/** A role of its own, so `from_role` picks exactly these accounts. */
async function withRole(): Promise<string> {
  const role = `cms_bulk_${unique('r').replace(/[^a-z0-9]/gi, '').toLowerCase()}`;
  await wpPhp(`add_role('${role}', 'Bulk test', ['read' => true]);`);
  return role;
}

/**
 * Accounts written straight into the tables (no password hashing: 200 bcrypt hashes would be the
 * test's whole time), with `role`; their ids.
 */
async function accounts(n: number, role: string): Promise<number[]> {
  const prefix = unique('bk').replace(/[^a-z0-9]/gi, '').toLowerCase();
  const out = await wpPhp(`global $wpdb; $ids = [];
    for ($i = 0; $i < ${n}; $i++) { $login = '${prefix}_' . $i;
      $wpdb->insert($wpdb->users, ['user_login' => $login, 'user_pass' => '*', 'user_nicename' => $login, 'user_email' => "$login@example.org", 'user_registered' => gmdate('Y-m-d H:i:s'), 'display_name' => $login]);
      $id = (int) $wpdb->insert_id; update_user_meta($id, $wpdb->prefix . 'capabilities', ['${role}' => true]); $ids[] = $id; }
    echo json_encode($ids);`);
  return JSON.parse(out) as number[];
}

async function cleanUp(ids: number[], role?: string): Promise<void> {
  await wpPhp(`require_once ABSPATH . 'wp-admin/includes/user.php'; foreach (${JSON.stringify(ids)} as $id) wp_delete_user($id);${role ? ` remove_role('${role}');` : ''}`);
}

async function rolesOf(ids: number[]): Promise<Map<number, string[]>> {
  const out = JSON.parse(await wpPhp(`$r = []; foreach (${JSON.stringify(ids)} as $id) { $u = get_userdata($id); $r[$id] = $u ? array_values($u->roles) : null; } echo json_encode($r);`));
  return new Map(Object.entries(out as Record<string, string[] | null>).flatMap(([id, roles]) => (roles ? [[Number(id), roles]] : [])));
}

/** Requests a job makes on a context whose connect and REST index are already read. */
async function requestsOf<T>(context: ToolContext, job: () => Promise<T>): Promise<{ result: T; requests: number }> {
  await context.client.connect();
  await context.client.namespaces();
  const before = context.client.stats.requests;
  const result = await job();
  return { result, requests: context.client.stats.requests - before };
}

describe('bulk accounts at the floor (#61): request counts, time budgets', () => {

  it('set-users-role of 200 accounts, journalled, in at most 10 requests; its undo in a few more', { timeout: 120_000 }, async () => {
    const role = await withRole();
    const ids = await accounts(ACCOUNTS, role);
    try {
      const journal = memoryJournal();
      const context = createContext(testSite(), { journal });
      const { result, requests } = await requestsOf(context, () => callOkIn(context, 'set-users-role', { from_role: role, to_role: 'author' }));
      console.log(`set-users-role of ${ACCOUNTS} accounts: ${requests} requests`);
      expect(requests).toBeLessThanOrEqual(10);
      expect(result.counts).toMatchObject({ changed: ACCOUNTS, skipped: 0, refused: 0, failed: 0 });
      expect([...(await rolesOf(ids)).values()].every((r) => r.length === 1 && r[0] === 'author')).toBe(true);

      const undo = await requestsOf(context, () => undoChange(context, journal));
      console.log(`its undo: ${undo.requests} requests`);
      expect(undo.result.conflicts).toEqual([]);
      expect(undo.requests).toBeLessThanOrEqual(10);
      expect([...(await rolesOf(ids)).values()].every((r) => r.length === 1 && r[0] === role)).toBe(true);
    } finally {
      await cleanUp(ids, role);
    }
  });

  it('the undo of a 200-row import deletes its accounts in at most 15 requests', { timeout: 240_000 }, async () => {
    const prefix = unique('bki').replace(/[^a-z0-9]/gi, '').toLowerCase();
    const csv = ['user_login,user_email', ...Array.from({ length: ACCOUNTS }, (_, i) => `${prefix}_${i},${prefix}_${i}@example.org`)].join('\n');
    const journal = memoryJournal();
    const context = createContext(testSite(), { journal });
    const imported = await callOkIn(context, 'import-users', { csv });
    expect(imported.counts).toMatchObject({ created: ACCOUNTS });
    const { result, requests } = await requestsOf(context, () => undoChange(context, journal));
    console.log(`undo of a ${ACCOUNTS}-row import: ${requests} requests`);
    expect(result.conflicts).toEqual([]);
    expect(result.restored).toHaveLength(ACCOUNTS);
    expect(requests).toBeLessThanOrEqual(15);
    const left = await wp().get<unknown[]>('/wp/v2/users', { search: `${prefix}_`, context: 'edit', _fields: 'id', per_page: 100 });
    expect(left).toEqual([]);
  });

  it('a route given a tiny time budget answers part; the client sends the rest until every account is done', { timeout: 120_000 }, async () => {
    const role = await withRole();
    const ids = await accounts(20, role);
    try {
      const context = createContext(testSite());
      const roles = await requestsOf(context, () =>
        changeRoles(context.client, ids.map((id) => ({ id, roles: ['contributor'], expect_roles: [role] })), { budgetMs: 50 }),
      );
      // 50 ms counted from the request's start (WordPress's boot included): a few accounts a request.
      expect(roles.requests).toBeGreaterThan(1);
      expect(roles.result.map((a) => [a.id, a.result])).toEqual(ids.map((id) => [id, 'done']));
      expect([...(await rolesOf(ids)).values()]).toEqual(ids.map(() => ['contributor']));

      const deleted = await requestsOf(context, () =>
        deleteAccounts(context.client, ids.map((id) => ({ id, expect: { roles: ['contributor'] } })), {}, { budgetMs: 50 }),
      );
      expect(deleted.requests).toBeGreaterThan(1);
      expect(deleted.result.map((a) => [a.id, a.result])).toEqual(ids.map((id) => [id, 'deleted']));
      expect((await rolesOf(ids)).size).toBe(0);
    } finally {
      await cleanUp(ids, role);
    }
  });

  it('without the companion plugin: set-users-role and its undo take the core path and still do the job', { timeout: 120_000 }, async () => {
    const role = await withRole();
    const ids = await accounts(5, role);
    try {
      const journal = memoryJournal();
      const context = withoutCompanion(createContext(testSite(), { journal }));
      const result = await callOkIn(context, 'set-users-role', { from_role: role, to_role: 'contributor' });
      expect(result.counts).toMatchObject({ changed: 5 });
      expect([...(await rolesOf(ids)).values()]).toEqual(ids.map(() => ['contributor']));
      expect((await undoChange(context, journal)).conflicts).toEqual([]);
      expect([...(await rolesOf(ids)).values()]).toEqual(ids.map(() => [role]));
    } finally {
      await cleanUp(ids, role);
    }
  });
});
