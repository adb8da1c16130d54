import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';

/**
 * Issue #59: the change store lost or damaged under a write, through the CLI against the
 * sandbox, the site read back. Finding 7: what `journal_failed` says follows what happened —
 * the store deleted while the write ran (the write was made; its entry went with the store),
 * the store locked when the entry is completed (the write was made; the entry stays incomplete
 * and undo repairs it). Finding 6: a store whose first bytes are damaged stops the write. The
 * write is parked by the fault proxy while the test deletes or locks the store.
 */
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
});
afterAll(() => proxy.stop());

const envFor = (journal: string) => {
  const site = testSite();
  return { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: journal, CMS_STORE: undefined };
};
const newJournal = () => path.join(mkdtempSync(path.join(tmpdir(), 'lost-')), 'changes.db');

/** Renames a new category through `invoke`, its write parked until `meanwhile` has run. */
async function renameParked(journal: string, meanwhile: () => Promise<void>): Promise<{ id: number; name: string; out: CliResult }> {
  const name = unique('Lost store');
  const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
  proxy.clear().inject({ method: 'POST', path: new RegExp(`/wp/v2/categories/${cat.id}\\b`), limit: 1, fault: { kind: 'hold' } });
  const running = runCli(['invoke', JSON.stringify({ tool: 'update-category', params: { id: cat.id, name: `${name} 2` } })], {
    env: envFor(journal),
    timeoutMs: 120_000,
  });
  await proxy.whenHeld();
  await meanwhile();
  proxy.release();
  const out = await running;
  proxy.clear();
  return { id: cat.id, name, out };
}

describe('journal_failed says what happened (#59.7)', { timeout: 150_000 }, () => {
  it('the store deleted during the write: the write was made, and its entry is gone with the store', async () => {
    const journal = newJournal();
    const { id, name, out } = await renameParked(journal, async () => {
      for (const file of [journal, `${journal}-wal`, `${journal}-shm`]) rmSync(file, { force: true });
    });
    expect(out.code, out.stderr).toBe(0);
    const note = JSON.parse(out.stdout).result.journal_failed as string;
    expect(note).toMatch(/^This write was made, but its journal entry is gone/);
    expect(note).toContain(journal);
    expect(note).not.toMatch(/was not made|stays .*incomplete/);
    expect((await readTerm('categories', id))?.name).toBe(`${name} 2`);
  });

  it('the store locked when the entry is completed: the write was made; the entry stays incomplete, and undo puts it back', async () => {
    const journal = newJournal();
    let locker: ReturnType<typeof spawn> | undefined;
    const { id, name, out } = await renameParked(journal, async () => {
      // Another process holds the store's write lock past the busy timeout.
      const script = `const { DatabaseSync } = await import('node:sqlite'); const db = new DatabaseSync(process.argv[1]); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setInterval(() => {}, 1 << 30);`;
      locker = spawn(process.execPath, ['--input-type=module', '-e', script, journal], { stdio: ['ignore', 'pipe', 'ignore'] });
      await new Promise<void>((resolve) => locker?.stdout?.once('data', () => resolve()));
    });
    const gone = new Promise((resolve) => locker?.once('exit', resolve));
    locker?.kill();
    await gone;
    expect(out.code, out.stderr).toBe(0);
    const note = JSON.parse(out.stdout).result.journal_failed as string;
    expect(note).toMatch(/^This write was made, but its journal entry could not be completed \(database is locked\)/);
    expect(note).toContain(`stays in ${journal} marked incomplete`);
    expect(note).not.toMatch(/was not made/);
    expect((await readTerm('categories', id))?.name).toBe(`${name} 2`);
    expect((await runCli(['changes'], { env: envFor(journal) })).stdout).toMatch(/update-category\s+.*incomplete/);
    const undo = await runCli(['undo', '--yes'], { env: envFor(journal) });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect((await readTerm('categories', id))?.name).toBe(name);
  });
});

describe('a store whose first bytes are damaged (#59.6)', { timeout: 120_000 }, () => {
  it('stops the write (journal_unavailable, naming the file and the fix); nothing reaches WordPress; no new store beside it', async () => {
    const journal = newJournal();
    const first = await runCli(['invoke', JSON.stringify({ tool: 'create-tag', params: { name: unique('Before damage') } })], { env: envFor(journal) });
    expect(first.code, first.stderr).toBe(0);
    const fd = openSync(journal, 'r+');
    writeSync(fd, Buffer.from('{not a database}'), 0, 16, 0);
    closeSync(fd);
    const name = unique('After damage');
    proxy.clear();
    const since = proxy.events.length;
    const out = await runCli(['invoke', JSON.stringify({ tool: 'create-tag', params: { name } })], { env: envFor(journal) });
    expect(out.code).not.toBe(0);
    const { error } = JSON.parse(out.stdout);
    expect(error.code).toBe('journal_unavailable');
    expect(error.message).toContain(journal);
    expect(error.message).toMatch(/neither a SQLite database nor a JSON Lines journal/);
    expect(error.hint).toMatch(/Move the file aside/);
    expect(proxy.count('POST', undefined, since)).toBe(0);
    expect((await wp().get<Array<{ name: string }>>('/wp/v2/tags', { search: name, hide_empty: false })).filter((t) => t.name === name)).toEqual([]);
    expect(existsSync(`${journal}.db`)).toBe(false);
    // Reading it says the same, with the fix.
    const listed = await runCli(['changes'], { env: envFor(journal) });
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`The change journal ${journal} cannot be read`);
    expect(listed.stderr).toMatch(/Move the file aside/);
  });
});
