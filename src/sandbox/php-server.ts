import { rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { requireBinary } from './exec.js';
import type { InstancePaths } from './paths.js';
import { scriptsDir } from './paths.js';
import {
  groupMembers,
  isAlive,
  pgidOf,
  processesWithArg,
  readPidFile,
  signal,
  spawnDetached,
  waitFor,
} from './processes.js';

export function phpLog(inst: InstancePaths): string {
  return join(inst.logsDir, 'php.log');
}

/** pid (= process group id) of the running `php -S` master of this instance, if any. */
export async function phpPid(inst: InstancePaths): Promise<number | undefined> {
  const pid = await readPidFile(inst.phpPidFile);
  return isAlive(pid, inst.wpDir) ? pid : undefined;
}

/**
 * Process groups holding this instance's php -S processes, found by their
 * docroot argument rather than the pid file: a master may be gone while its
 * forked workers still hold the port, and a stale pid may belong to someone else.
 */
function phpGroups(inst: InstancePaths): number[] {
  const groups = new Set<number>();
  const own = pgidOf(process.pid);
  for (const pid of processesWithArg('php', inst.wpDir)) {
    const pgid = pgidOf(pid);
    if (pgid && pgid !== own) groups.add(pgid);
  }
  return [...groups];
}

/** True if something accepts TCP connections on 127.0.0.1:port. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ host: '127.0.0.1', port });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

/**
 * PHP's built-in server, detached in its own process group. With
 * PHP_CLI_SERVER_WORKERS it forks workers that survive a signal to the master
 * alone, so stopPhpServer() signals the whole group.
 * https://www.php.net/manual/en/features.commandline.webserver.php
 * `network`: the router maps each site's /<site>/wp-admin/ etc. (router.php).
 */
export async function startPhpServer(inst: InstancePaths, port: number, network = false): Promise<number> {
  const pid = spawnDetached(
    requireBinary('php'),
    [
      '-d',
      'display_errors=0',
      '-d',
      'log_errors=1',
      // PHP's JIT (tracing), in OPcache's shared memory, so every forked worker uses it: measured
      // on the sandbox's REST requests, ~17% less CPU a request (docs/testing.md). OPcache itself
      // is on for php -S by default (opcache.enable; enable_cli covers the plain CLI only).
      '-d',
      'opcache.jit_buffer_size=64M',
      '-d',
      'opcache.jit=tracing',
      '-S',
      `127.0.0.1:${port}`,
      '-t',
      inst.wpDir,
      join(scriptsDir(), 'router.php'),
    ],
    { logFile: phpLog(inst), cwd: inst.wpDir, env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4', CMS_SANDBOX_NETWORK: network ? '1' : '0' } },
  );
  await writeFile(inst.phpPidFile, `${pid}\n`);
  return pid;
}

/** Poll GET <url>/wp-json/ until WordPress answers 200, failing fast if php died. */
export async function waitForRest(url: string, pid: number, timeoutMs = 30_000): Promise<void> {
  let lastError = 'no answer';
  const ok = await waitFor(
    async () => {
      if (!isAlive(pid)) throw new Error('php -S exited');
      try {
        const res = await fetch(`${url}/wp-json/`, { signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        lastError = `HTTP ${res.status}`;
        return res.ok;
      } catch (err) {
        lastError = (err as Error).message;
        return false;
      }
    },
    timeoutMs,
    30,
  );
  if (!ok) throw new Error(`WordPress did not answer ${url}/wp-json/ within ${timeoutMs / 1000}s (${lastError})`);
}

/** Signal each whole process group (master and workers), escalating to SIGKILL. */
export async function stopPhpServer(inst: InstancePaths): Promise<void> {
  const groups = phpGroups(inst);
  const gone = () => groups.every((g) => groupMembers(g).length === 0);
  for (const g of groups) signal(-g, 'SIGTERM');
  if (!(await waitFor(gone, 10_000))) {
    for (const g of groups) signal(-g, 'SIGKILL');
    await waitFor(gone, 5_000);
  }
  await rm(inst.phpPidFile, { force: true });
}
