import { createHash } from 'node:crypto';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { ToolError } from '../tools/tool-error.js';
import type { ChangeJournal } from './journal.js';

/**
 * Undos of one journal run one at a time (issue #33: two parallel undo calls undid the
 * same change twice, each having checked `already_undone` before the other wrote its entry).
 * In this process: a queue per journal (per file when it has a path). Across processes (two
 * `cms-admin undo` at once): a lock file next to the journal, `<journal>.undo-lock`, created
 * exclusively; one left by a process that died is taken over. A store that serialises itself
 * (`ChangeJournal.serialize`: the PostgreSQL store's advisory lock) is used instead of the file.
 */
const queues = new Map<unknown, Promise<unknown>>();

/** How long to wait for another process's undo (an undo of thousands of posts takes a while). */
const WAIT_MS = 120_000;
const STEP_MS = 50;

export async function withUndoLock<T>(journal: ChangeJournal, run: () => Promise<T>): Promise<T> {
  const file = (journal as { path?: unknown }).path;
  // A change store holds many sites: undos are serialised per site (one lock file each).
  const path = typeof file === 'string' && journal.site ? `${file}.${createHash('sha256').update(journal.site).digest('hex').slice(0, 12)}` : file;
  const key = typeof path === 'string' ? path : journal;
  const before = queues.get(key) ?? Promise.resolve();
  // A store that locks across processes itself (PostgreSQL: an advisory lock per site) does.
  const across = journal.serialize?.bind(journal);
  const mine = before
    .catch(() => undefined)
    .then(() => (across ? across(run) : typeof path === 'string' ? withLockFile(path, run) : run()));
  const tail = mine.catch(() => undefined);
  queues.set(key, tail);
  try {
    return await mine;
  } finally {
    if (queues.get(key) === tail) queues.delete(key);
  }
}

async function withLockFile<T>(journalPath: string, run: () => Promise<T>): Promise<T> {
  const lock = `${journalPath}.undo-lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // No folder yet (no journal yet): nothing to undo, and nothing to serialise against.
      if (code === 'ENOENT') return run();
      if (code !== 'EEXIST') throw err;
      if (await holderDied(lock)) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new ToolError('undo_busy', `Another undo of this journal is still running (${lock}). Nothing was changed.`, {
          hint: 'Try again when it has finished; a lock file left by a process that no longer runs is taken over.',
        });
      await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    }
  }
  try {
    return await run();
  } finally {
    await rm(lock, { force: true });
  }
}

/** The lock's process is gone (killed mid-undo): its lock holds nothing. */
async function holderDied(lock: string): Promise<boolean> {
  const pid = Number(await readFile(lock, 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) {
    // Being written right now, or left empty by a process killed between create and write.
    const made = await stat(lock).then((s) => s.mtimeMs, () => Date.now());
    return Date.now() - made > 10_000;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
