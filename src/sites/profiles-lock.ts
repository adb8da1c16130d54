import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config-error.js';

/**
 * Changes to the profiles file take turns: each reads the file, changes it and renames a new one
 * over it, so two `cms-admin sites add` at the same instant each wrote the file without the
 * other's profile, and one addition was lost. `<file>.lock`, created exclusively, holds the
 * writer's pid; one left by a process that died is taken over. The work inside is a read and a
 * rename (milliseconds), so the wait is short and synchronous.
 */
const WAIT_MS = 10_000;
const STEP_MS = 10;

export function withProfilesLock<T>(file: string, change: () => T, waitMs = WAIT_MS): T {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const lock = `${file}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (holderDied(lock)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new ConfigError(
          `The site profiles file ${file} is being changed by another cms-admin (${lock}); nothing was changed. Try again; a lock left by a process that no longer runs is taken over.`,
          'invalid_config',
        );
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, STEP_MS);
    }
  }
  try {
    return change();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** The lock's process is gone (killed between its read and its rename): its lock holds nothing. */
function holderDied(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, 'utf8'));
  } catch {
    return false; // removed meanwhile: try again
  }
  if (!Number.isInteger(pid) || pid <= 0) {
    // Being written right now, or left empty by a process killed between create and write.
    const made = (() => {
      try {
        return statSync(lock).mtimeMs;
      } catch {
        return Date.now();
      }
    })();
    return Date.now() - made > 5_000;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
