import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgChangeStore } from '../../src/undo/change-store-pg.js';
import { stillRunning } from '../../src/undo/change-store.js';
import { type ChangeEntry, newChangeId } from '../../src/undo/journal.js';
import { siteKey } from '../../src/undo/site-key.js';
import { runCli } from '../helpers/cli.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { fixedPorts } from '../helpers/ports.js';
import { startPostgres } from '../helpers/postgres.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';

/**
 * Issue #59, finding 2: PostgreSQL restarted while a write is under way. The writer's owner lock
 * dies with its session; before the fix its intent then read as abandoned, and another process's
 * `undo --store … --yes` answered "restored nothing", marked it undone, and the write landed
 * afterwards. Now the writer takes its key again, and an intent whose owner is not proven gone
 * is still running. A real PostgreSQL (test/helpers/postgres.ts) restarted by the test; the
 * writer's WordPress write parked by the fault proxy while it restarts; the site read back.
 */
const site = testSite();
let db: Awaited<ReturnType<typeof startPostgres>>;
let proxy: FaultProxy;

beforeAll(async () => {
  db = await startPostgres({ port: fixedPorts().postgresRestart });
  proxy = await new FaultProxy(site.url).start();
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await db?.stop();
});

const env = () => ({ CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_STORE: db.url, CMS_JOURNAL: undefined });

describe('PostgreSQL restarted during a write (#59.2)', () => {
  it('a table made before intents recorded when they began gets the column; its rows read as before', async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query('DROP TABLE IF EXISTS cms_changes');
      await admin.query(
        'CREATE TABLE cms_changes (seq bigserial PRIMARY KEY, id text NOT NULL UNIQUE, site text NOT NULL, user_id bigint, login text, run text, tool text NOT NULL, status text NOT NULL, undoes text, at text NOT NULL, owner integer, doc text NOT NULL)',
      );
      const old: ChangeEntry = { change_id: newChangeId(), at: new Date().toISOString(), tool: 'update-category', params: {}, summary: 'from before', reversible: true, before: {}, after: {} };
      await admin.query("INSERT INTO cms_changes (id, site, tool, status, at, doc) VALUES ($1, 'http://old', 'update-category', 'done', $2, $3)", [old.change_id, old.at, JSON.stringify(old)]);
      const store = pgChangeStore(`${db.url}?application_name=upgrade`);
      try {
        expect((await store.journal().entries()).map((e) => e.summary)).toEqual(['from before']);
      } finally {
        await store.close();
      }
      expect((await admin.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'cms_changes' AND column_name = 'begun'")).rowCount).toBe(1);
    } finally {
      await admin.end();
    }
  });

  it("another process's undo answers change_in_progress; the write lands, is journalled done, and its undo takes it back", { timeout: 180_000 }, async () => {
    const name = unique('Pg restart');
    const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
    const write = new RegExp(`/wp/v2/categories/${cat.id}\\b`);
    proxy.clear().inject({ method: 'POST', path: write, limit: 1, fault: { kind: 'hold' } });
    const writer = runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } })], { env: env(), timeoutMs: 150_000 });
    // Held: the intent is committed, and the write has not reached WordPress.
    await proxy.whenHeld();
    await db.restart();

    const early = await runCli(['undo', '--store', db.url, '--yes'], { env: env() });
    expect(early.code, early.stdout + early.stderr).toBe(1);
    expect(early.stderr).toContain('change_in_progress');
    expect(early.stdout).not.toMatch(/restored nothing|undid/);
    expect((await readTerm('categories', cat.id))?.name).toBe(name);

    // The write lands; the writer completes its entry (its lock taken again first).
    proxy.release();
    const done = await writer;
    proxy.clear();
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).result.journal_failed).toBeUndefined();
    expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`);
    const listed = await runCli(['changes', '--store', db.url, '--json'], { env: env() });
    const entry = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ChangeEntry)
      .find((e) => e.tool === 'update-category' && (e.params as { id?: number }).id === cat.id);
    expect(entry).toMatchObject({ status: 'done' });
    expect(listed.stdout).not.toMatch(/"undoes"/);

    const undo = await runCli(['undo', '--store', db.url, '--yes'], { env: env() });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect((await readTerm('categories', cat.id))?.name).toBe(name);
  });

  it("an intent whose owner's lock went with the restart reads as still running; one whose owner ended its session since, as abandoned", { timeout: 120_000 }, async () => {
    const key = siteKey('http://127.0.0.1:9310');
    const reader = pgChangeStore(`${db.url}?application_name=reader`);
    // A writer on another host (only PostgreSQL can tell whether it lives): its lock on a
    // session of its own, and an intent naming it, as change-store-pg.ts writes them.
    const writerOn = async (owner: number) => {
      const session = new pg.Client({ connectionString: db.url });
      session.on('error', () => {});
      await session.connect();
      expect((await session.query('SELECT pg_try_advisory_lock(4904918, $1) AS ok', [owner])).rows[0].ok).toBe(true);
      const intent: ChangeEntry = {
        change_id: newChangeId(),
        at: new Date().toISOString(),
        tool: 'update-category',
        params: { id: 1 },
        summary: 'under way',
        reversible: true,
        before: {},
        after: {},
        site: key,
        status: 'pending',
        pid: 4242,
        host: 'replica-elsewhere',
      };
      await reader.journal(key).append({ ...intent, status: undefined });
      await session.query('UPDATE cms_changes SET status = $1, owner = $2, doc = $3 WHERE id = $4', ['pending', owner, JSON.stringify(intent), intent.change_id]);
      return { session, intent };
    };
    const seen = async (id: string) => (await reader.journal(key).entries()).find((e) => e.change_id === id) as ChangeEntry;
    try {
      const before = await writerOn(1001);
      expect(stillRunning(await seen(before.intent.change_id))).toBe(true);
      await db.restart();
      // Its session ended with the restart and it has not taken its key again: not proven gone.
      expect(stillRunning(await seen(before.intent.change_id))).toBe(true);
      // Begun in the server's present life, its session then ended: gone, incomplete.
      const after = await writerOn(1002);
      expect(stillRunning(await seen(after.intent.change_id))).toBe(true);
      await after.session.end();
      await expect.poll(async () => stillRunning(await seen(after.intent.change_id)), { timeout: 20_000 }).toBe(false);
    } finally {
      await reader.close();
    }
  });
});
