import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChangeJournal, memoryJournal } from '../../src/undo/journal.js';
import { withUndoLock } from '../../src/undo/serial.js';

/** A promise and the function that settles it: the test decides when an undo "finishes". */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** Waits for a condition, a bounded number of turns of the event loop (no timers). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

/** A journal kept in a file, as far as the lock sees it: its `path`. */
const atFile = (file: string): ChangeJournal => Object.assign(memoryJournal(), { path: file });

describe('undos of one journal run one at a time (src/undo/serial.ts)', () => {
  it('in one process: the second waits for the first, another journal does not', async () => {
    const journal = memoryJournal();
    const first = gate();
    const order: string[] = [];
    const a = withUndoLock(journal, async () => {
      order.push('a starts');
      await first.opened;
      order.push('a ends');
    });
    const b = withUndoLock(journal, async () => {
      order.push('b starts');
    });
    const other = withUndoLock(memoryJournal(), async () => {
      order.push('other');
    });
    await other;
    await until(() => order.includes('a starts'), 'a started');
    expect(order).not.toContain('b starts');
    first.open();
    await Promise.all([a, b]);
    expect(order.filter((o) => o !== 'other')).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it('a failed undo does not block the next one', async () => {
    const journal = memoryJournal();
    await expect(withUndoLock(journal, async () => Promise.reject(new Error('fault')))).rejects.toThrow('fault');
    await expect(withUndoLock(journal, async () => 'ran')).resolves.toBe('ran');
  });

  it('across processes: a lock file next to the journal is waited for while its process lives, taken over when it is gone, removed after', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'undo-lock-'));
    const file = path.join(folder, 'changes.jsonl');
    const lock = `${file}.undo-lock`;
    writeFileSync(file, '');
    // Another live process holds it (this test's own pid stands for it: it is alive).
    writeFileSync(lock, String(process.pid));
    let ran = false;
    const waiting = withUndoLock(atFile(file), async () => {
      ran = true;
    });
    // Bounded: the lock is polled every 50 ms; a few polls must pass without running.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ran).toBe(false);
    rmSync(lock);
    await waiting;
    expect(ran).toBe(true);
    expect(existsSync(lock)).toBe(false);

    // A process that died holding it: taken over at once.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(lock, dead);
    await expect(withUndoLock(atFile(file), async () => 'taken over')).resolves.toBe('taken over');
    expect(existsSync(lock)).toBe(false);
  });
});
