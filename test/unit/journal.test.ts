import { mkdtempSync, statSync, writeFileSync, readFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileJournal, isUndone, madeBy, memoryJournal, newChangeId, type ChangeEntry, undoneBy } from '../../src/undo/journal.js';
import { countLines, type DamagedLine, describeDamage, isDamaged, linesBackward } from '../../src/undo/journal-file.js';
import { journalTail } from '../../src/undo/journal-read.js';
import { pruneJournal } from '../../src/undo/journal-prune.js';
import { appendEntry } from '../../src/undo/record.js';
import { runCli } from '../helpers/cli.js';
import type { ToolContext } from '../../src/call/index.js';

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

  it('a file journal is created 0600, tightens a loose file, keeps order and skips a torn line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'journal-'));
    const file = path.join(dir, 'changes.jsonl');
    const journal = fileJournal(file);
    const entries = Array.from({ length: 20 }, (_, i) => entry({ summary: `n${i}` }));
    await Promise.all(entries.map((e) => journal.append(e)));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await journal.entries()).map((e) => e.summary)).toEqual(entries.map((e) => e.summary));
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"change_id":"cut`);
    expect(await journal.entries()).toHaveLength(20);
    const loose = path.join(dir, 'loose.jsonl');
    writeFileSync(loose, '');
    chmodSync(loose, 0o644);
    fileJournal(loose);
    expect(statSync(loose).mode & 0o777).toBe(0o600);
    expect(await fileJournal(path.join(dir, 'none.jsonl')).entries()).toEqual([]);
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

describe('change journal file: damage, reading from the end, accounts, pruning (#33, #34)', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'journal-'));

  it('reads lines from the end across chunk boundaries exactly as they are from the start', async () => {
    const file = path.join(dir(), 'lines.jsonl');
    // Lines from 1 byte to 200 KB: some span several 64 KB chunks.
    const lines = Array.from({ length: 60 }, (_, i) => 'x'.repeat(((i * 7919) % 200_000) + 1));
    writeFileSync(file, `${lines.join('\n')}\n`);
    const back: string[] = [];
    for await (const { bytes } of linesBackward(file)) back.push(bytes.toString());
    expect(back.reverse()).toEqual(lines);
    expect(await countLines(file)).toBe(60);
  });

  it('an append after a line cut short starts a fresh line; the reader names the cut line and recovers one glued onto it', async () => {
    const file = path.join(dir(), 'changes.jsonl');
    const journal = fileJournal(file);
    const first = entry({ summary: 'first' });
    await journal.append(first);
    // A writer killed mid-line (or a full disk before #34): no newline at the end.
    writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify(entry({ summary: 'cut' })).slice(0, 40)}`);
    const next = entry({ summary: 'next' });
    await journal.append(next);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(lines[2] as string).summary).toBe('next');
    const items = [];
    for await (const item of fileJournal(file).latest!()) items.push(item);
    expect(items.map((i) => (isDamaged(i) ? `damaged:${i.why}` : i.summary))).toEqual(['next', 'damaged:not a change entry', 'first'].map((s) => s.replace('not a change entry', 'cut short')));
    const damage = items[1] as DamagedLine;
    expect(await describeDamage(file, damage)).toBe(`line 2 of ${file} is damaged (cut short)`);
    // A file written before the fix: the next entry glued onto the cut line is recovered.
    const glued = path.join(dir(), 'glued.jsonl');
    writeFileSync(glued, `${JSON.stringify(first)}\n{"change_id":"cx","at":"2026${JSON.stringify(next)}\n`);
    const old = [];
    for await (const item of fileJournal(glued).latest!()) old.push(isDamaged(item) ? item.why : item.summary);
    expect(old).toEqual(['next', 'cut short, the next entry joined to it (recovered)', 'first']);
    expect((await fileJournal(glued).entries()).map((e) => e.summary)).toEqual(['first', 'next']);
  });

  it('without a change id, an undo refuses to guess past damage newer than the last change; with one it reads past it', async () => {
    const file = path.join(dir(), 'changes.jsonl');
    const journal = fileJournal(file);
    const me = { id: 1, username: 'admin' };
    const a = entry({ user: 'admin', user_id: 1, summary: 'a' });
    await journal.append(a);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"change_id":"cut`);
    await expect(journalTail(journal, me, {})).rejects.toMatchObject({ code: 'journal_damaged', message: expect.stringContaining(`line 2 of ${file} is damaged (cut short)`) });
    expect((await journalTail(journal, me, { change_id: a.change_id })).map((e) => e.summary)).toEqual(['a']);
    // Damage older than the last change is no obstacle.
    const b = entry({ user: 'admin', user_id: 1, summary: 'b' });
    await journal.append(b);
    expect((await journalTail(journal, me, {})).map((e) => e.summary)).toEqual(['b']);
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

  it('prune moves old entries to FILE.1, repair sets damaged lines aside in FILE.damaged; both keep the rest intact', async () => {
    const file = path.join(dir(), 'changes.jsonl');
    const old = entry({ at: '2020-01-01T00:00:00.000Z', summary: 'old' });
    const recent = entry({ summary: 'recent' });
    writeFileSync(file, `${JSON.stringify(old)}\n{"change_id":"cu\n${JSON.stringify(recent)}\n`, { mode: 0o600 });
    const pruned = await pruneJournal(file, { olderThanMs: 90 * 86_400_000 });
    expect(pruned).toMatchObject({ kept: 1, moved: 1, damaged: 0 });
    expect(readFileSync(`${file}.1`, 'utf8')).toBe(`${JSON.stringify(old)}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const repaired = await pruneJournal(file, { repair: true });
    expect(repaired).toMatchObject({ kept: 1, damaged: 1 });
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(recent)}\n`);
    expect(readFileSync(`${file}.damaged`, 'utf8')).toContain('{"change_id":"cu');
  });

  it('past CMS_JOURNAL_MAX_MB an append moves entries older than CMS_JOURNAL_KEEP_DAYS to FILE.1; changes --prune does it on demand', async () => {
    const file = path.join(dir(), 'changes.jsonl');
    const old = entry({ at: '2020-01-01T00:00:00.000Z', summary: 'old' });
    writeFileSync(file, `${JSON.stringify(old)}\n`, { mode: 0o600 });
    process.env.CMS_JOURNAL_MAX_MB = '0.0001';
    try {
      await fileJournal(file).append(entry({ summary: 'new' }));
    } finally {
      delete process.env.CMS_JOURNAL_MAX_MB;
    }
    expect((await fileJournal(file).entries()).map((e) => e.summary)).toEqual(['new']);
    expect((await fileJournal(`${file}.1`).entries()).map((e) => e.summary)).toEqual(['old']);

    await fileJournal(file).append(entry({ at: '2021-01-01T00:00:00.000Z', summary: 'older' }));
    const run = await runCli(['changes', '--journal', file, '--prune', '--older-than', '90d']);
    expect(run.stdout).toBe(`kept 1 change(s) in ${file}; moved 1 older one(s) to ${file}.1 (they can no longer be undone).\n`);
    expect((await fileJournal(`${file}.1`).entries()).map((e) => e.summary)).toEqual(['old', 'older']);
    expect((await runCli(['changes', '--journal', file, '--prune'])).code).toBe(2);
  }, 60_000);
});
