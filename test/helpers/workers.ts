import { availableParallelism } from 'node:os';

/**
 * How many files run at once, so how many instances there are (CMS_TEST_WORKERS). A developer
 * who names their own port (CMS_TEST_PORT, as AGENTS.md says) gets one instance on that port
 * unless they ask for more: the ports after theirs may be someone else's.
 */
export function testWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CMS_TEST_WORKERS;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 16) throw new Error(`CMS_TEST_WORKERS=${raw}: expected an integer 1-16`);
    return n;
  }
  if (env.CMS_TEST_PORT) return 1;
  // PHP, MariaDB and Node share the cores; one more file than cores keeps them busy while a
  // file waits on a child process or on the site (measured: docs/testing.md).
  return Math.min(4, availableParallelism() + 1);
}
