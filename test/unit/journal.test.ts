import { mkdtempSync, statSync, writeFileSync, readFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileJournal, isUndone, memoryJournal, newChangeId, type ChangeEntry, undoneBy } from '../../src/undo/journal.js';
import { appendEntry } from '../../src/undo/record.js';
import type { ToolContext } from '../../src/tools/index.js';

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
