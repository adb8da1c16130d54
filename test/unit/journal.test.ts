import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync, chmodSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileJournal, isUndone, madeBy, memoryJournal, newChangeId, type ChangeEntry, undoneBy } from '../../src/undo/journal.js';
import { journalTail } from '../../src/undo/journal-read.js';
import { changeStore } from '../../src/undo/change-store.js';
import { siteKey } from '../../src/undo/site-key.js';
import { appendEntry } from '../../src/undo/record.js';
import type { ToolContext } from '../../src/call/index.js';

const A = 'http://127.0.0.1:9300';
const B = 'http://127.0.0.1/9300';

const entry = (over: Partial<ChangeEntry> = {}): ChangeEntry => ({
  change_id: newChangeId(),
  at: new Date().toISOString(),
  tool: 'update-category',
  params: { id: 1 },
  summary: 's',
  reversible: true,
  before: {},
  after: {},
  ...over,
});

describe('change journal', () => {
  it('change ids are unique and sort by time, also within one millisecond', () => {
    const ids = Array.from({ length: 200 }, () => newChangeId());
    expect(new Set(ids).size).toBe(200);
    expect([...ids].sort((a, b) => (a.slice(0, -4) < b.slice(0, -4) ? -1 : 1))).toEqual(ids);
  });

  it('a change store is created 0600 (its WAL too), tightens a loose file and keeps order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'journal-'));
    const file = path.join(dir, 'changes.db');
    const journal = fileJournal(file).forSite!(A);
    const entries = Array.from({ length: 20 }, (_, i) => entry({ summary: `n${i}` }));
    for (const e of entries) await journal.append(e);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    expect((await journal.entries()).map((e) => e.summary)).toEqual(entries.map((e) => e.summary));
    expect((await journal.entries()).every((e) => e.site === A)).toBe(true);
    const loose = path.join(dir, 'loose.db');
    writeFileSync(loose, '');
    chmodSync(loose, 0o644);
    await fileJournal(loose).forSite!(A).append(entry());
    expect(statSync(loose).mode & 0o777).toBe(0o600);
    expect(await fileJournal(path.join(dir, 'none.db')).entries()).toEqual([]);
  });

  it('never stores a password or the application password: masked params, redacted values', async () => {
    const journal = memoryJournal();
    const context = { journal, secrets: ['app-pass-word-1234'] } as unknown as ToolContext;
    await appendEntry(
      context,
      entry({
        params: { password: '[REDACTED]' },
        summary: 'x app-pass-word-1234 y',
        before: { users: { 1: { bio: 'hunter2-secret' } } },
      }),
      ['hunter2-secret'],
    );
    const text = JSON.stringify(await journal.entries());
    expect(text).not.toContain('app-pass-word-1234');
    expect(text).not.toContain('hunter2-secret');
  });

  it('an undo undone (a redo) makes the change count as not undone again', () => {
    const a = entry();
    const u = entry({ undoes: a.change_id });
    expect(undoneBy([a, u], a.change_id)?.change_id).toBe(u.change_id);
    const r = entry({ undoes: u.change_id });
    expect(undoneBy([a, u, r], a.change_id)).toBeUndefined();
  });

  it('an undo cut short (incomplete) leaves the change to undo again; a later complete one counts', () => {
    const a = entry();
    const cut = entry({ undoes: a.change_id, incomplete: true });
    expect(isUndone([a, cut], a)).toBe(false);
    const done = entry({ undoes: a.change_id });
    expect(isUndone([a, cut, done], a)).toBe(true);
  });
});

describe('change store: sites, accounts, intents, retention, import (#33, #47)', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'journal-'));

  it('site keys keep scheme, host, port and path apart, and read one site the same however written', () => {
    expect(siteKey('http://h:9300')).not.toBe(siteKey('http://h/9300'));
    expect(siteKey('http://h:9300')).not.toBe(siteKey('https://h:9300'));
    expect(siteKey('HTTPS://Example.com:443/blog/')).toBe(siteKey('https://example.com/blog'));
  });

  it('one store shared by two sites: each view reads and undoes only its own site (finding 1)', async () => {
    const file = path.join(dir(), 'shared.db');
    const a = fileJournal(file).forSite!(siteKey(A));
    const b = fileJournal(file).forSite!(siteKey(B));
    const me = { id: 1, username: 'admin' };
    await a.append(entry({ summary: 'on a', user_id: 1, run_id: 'r1' }));
    await b.append(entry({ summary: 'on b', user_id: 1, run_id: 'r1' }));
    expect((await a.entries()).map((e) => e.summary)).toEqual(['on a']);
    expect((await b.byRun!('r1')).map((e) => e.summary)).toEqual(['on b']);
    expect((await journalTail(a, me, {})).map((e) => e.summary)).toEqual(['on a']);
    // A journal of an app's own shared by sites is read per site by the engine too.
    const mem = memoryJournal();
    await mem.append(entry({ summary: 'mem a', user_id: 1, site: siteKey(A) }));
    await mem.append(entry({ summary: 'mem b', user_id: 1, site: siteKey(B) }));
    expect((await journalTail(mem, me, {}, siteKey(A))).map((e) => e.summary)).toEqual(['mem a']);
    // A view refuses an entry of another site outright.
    await expect(a.append(entry({ site: siteKey(B) }))).rejects.toThrow(/written to the journal view/);
    expect(await changeStore(file).runSites('r1')).toEqual(expect.arrayContaining([siteKey(A), siteKey(B)]));
  });

  it('an intent is completed in place, keeping its place in the order; a failed one that changed nothing is dropped', async () => {
    const j = fileJournal(path.join(dir(), 'i.db')).forSite!(siteKey(A));
    const intent = entry({ summary: 'under way', status: 'pending', pid: process.pid });
    await j.append(intent);
    await j.append(entry({ summary: 'later' }));
    await j.update!({ ...intent, summary: 'done', status: 'done' });
    expect((await j.entries()).map((e) => `${e.summary}:${e.status}`)).toEqual(['done:done', 'later:undefined']);
    const failed = entry({ status: 'pending' });
    await j.append(failed);
    await j.discard!(failed.change_id);
    expect(await j.entries()).toHaveLength(2);
  });

  it('a store that cannot be written stops with journal_unavailable, naming the file and --journal off', async () => {
    const d = dir();
    writeFileSync(path.join(d, 'not-a-folder'), 'x');
    const j = fileJournal(path.join(d, 'not-a-folder', 'changes.db')).forSite!(siteKey(A));
    await expect(j.append(entry())).rejects.toMatchObject({
      code: 'journal_unavailable',
      message: expect.stringContaining('not-a-folder'),
      hint: expect.stringContaining('--journal off'),
    });
  });

  it('a change belongs to its account id; an entry without one to the login only if the account existed then', () => {
    const registered = '2026-06-01T00:00:00+00:00';
    const now = { id: 9, username: 'admin2', registered };
    expect(madeBy(entry({ user: 'admin2', user_id: 5 }), now)).toBe(false);
    expect(madeBy(entry({ user: 'admin2', user_id: 9 }), now)).toBe(true);
    expect(madeBy(entry({ user: 'admin2', at: '2026-05-01T00:00:00.000Z' }), now)).toBe(false);
    expect(madeBy(entry({ user: 'admin2', at: '2026-07-01T00:00:00.000Z' }), now)).toBe(true);
    expect(madeBy(entry({ user: 'admin2', at: '2026-07-01T00:00:00.000Z' }), { id: 9, username: 'admin2' })).toBe(false);
  });

  it('prune deletes by age and by size inside the database; the rest stays whole', async () => {
    // Built in one transaction (an old journal's import), not 301 checkpointed appends.
    const old = path.join(dir(), 'p.jsonl');
    const rows = [entry({ at: '2020-01-01T00:00:00.000Z', summary: 'old' })];
    for (let i = 0; i < 300; i++) rows.push(entry({ summary: `new${i}`, before: { pad: 'x'.repeat(2000) } }));
    writeFileSync(old, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const j = fileJournal(old).forSite!(siteKey(A));
    expect(await j.entries()).toHaveLength(301);
    const file = `${old}.db`;
    const store = changeStore(file);
    expect(await store.prune({ olderThanMs: 90 * 86_400_000 })).toMatchObject({ removed: 1, kept: 300 });
    const done = await store.prune({ maxBytes: 600_000 });
    expect(done.removed).toBeGreaterThan(0);
    const left = await j.entries();
    expect(left.length).toBe(done.kept);
    // The newest are kept, in order.
    expect(left.at(-1)?.summary).toBe('new299');
  });

  it('a JSON Lines journal of before is imported once into FILE.db, kept as it was, its damage named', async () => {
    const d = dir();
    const old = path.join(d, 'old.jsonl');
    const a = entry({ summary: 'a', user_id: 1 });
    const b = entry({ summary: 'b', user_id: 1 });
    writeFileSync(old, `${JSON.stringify(a)}\n{"change_id":"cut\n${JSON.stringify(b)}\n`);
    const text = readFileSync(old, 'utf8');
    const j = fileJournal(old).forSite!(siteKey(A));
    expect((await j.entries()).map((e) => e.summary)).toEqual(['a', 'b']);
    expect(existsSync(`${old}.db`)).toBe(true);
    expect(readFileSync(old, 'utf8')).toBe(text);
    // Opened again: nothing twice.
    expect(await fileJournal(old).forSite!(siteKey(A)).entries()).toHaveLength(2);
  });

  // Each commit is checkpointed into the database file (#59.5: two fsyncs), so this takes seconds.
  it('4 processes × 1,000 appends with retention forced on: every entry kept (finding 7)', { timeout: 120_000 }, async () => {
    const file = path.join(dir(), 'c.db');
    const appends = 1000;
    const script = `
      const { fileJournal } = await import(${JSON.stringify(path.resolve('src/undo/journal.ts'))});
      const j = fileJournal(process.argv[1]).forSite('http://127.0.0.1:1');
      for (let i = 0; i < ${appends}; i++)
        await j.append({ change_id: 'p' + process.pid + '-' + i, at: new Date().toISOString(), tool: 't', params: {}, summary: 's', reversible: true, before: {}, after: {} });
    `;
    const env = { ...process.env, CMS_JOURNAL_MAX_MB: '0.01', CMS_JOURNAL_KEEP_DAYS: '90' };
    const run = () =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file], { env, stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('exit', (code) => resolve(code ?? 1));
      });
    expect(await Promise.all([run(), run(), run(), run()])).toEqual([0, 0, 0, 0]);
    expect(await changeStore(file).count()).toBe(4 * appends);
  });
});
