import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { sleep } from './processes.js';

/**
 * Fills of one WordPress core cache take turns across processes (test workers, two `site up` at
 * once): one process rebuilding the cache removed the tree another was still reading, which
 * failed with ENOENT (a fresh clone's suite, two fleet files starting WordPress 6.1 together).
 * `<coreDir>.lock`, created exclusively, holds the filler's pid; a lock whose process is gone is
 * taken over. A download can take minutes, so the wait is long and asynchronous.
 */
export async function withCoreLock<T>(coreDir: string, fill: () => Promise<T>, waitMs = 15 * 60_000): Promise<T> {
  const lock = `${coreDir}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await holderGone(lock)) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`the WordPress cache ${coreDir} is still being filled by another process (${lock})`);
      await sleep(200);
    }
  }
  try {
    return await fill();
  } finally {
    await rm(lock, { force: true });
  }
}

async function holderGone(lock: string): Promise<boolean> {
  const pid = Number(await readFile(lock, 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) {
    // Being written right now, or left empty by a process killed between create and write.
    const made = await stat(lock).then((s) => s.mtimeMs).catch(() => Date.now());
    return Date.now() - made > 5_000;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
