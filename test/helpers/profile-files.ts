import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { testSandbox } from './sandboxes.js';

/**
 * setupFiles entry, opt-in: CMS_TEST_PROFILE=<file.jsonl> appends one line per test file with
 * where its time went: wall time, the worker's own CPU, its children's (CLIs, php -r, npm), and
 * its WordPress instance's php -S and MariaDB CPU and request count (each worker has an instance of
 * its own, so these are the file's alone). `npm run test:profile` sums them (docs/testing.md).
 * The fleet and network instances some files start are not counted.
 */
const out = process.env.CMS_TEST_PROFILE;
const TICK_MS = 10; // CLK_TCK 100 on Linux

/** utime+stime (own) and cutime+cstime (waited children), in ms, of a pid. */
function ticks(pid: number | 'self'): { own: number; children: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { own: (Number(f[11]) + Number(f[12])) * TICK_MS, children: (Number(f[13]) + Number(f[14])) * TICK_MS };
  } catch {
    return { own: 0, children: 0 };
  }
}

/** CPU ms of the instance's php -S processes and mariadbd (their command lines name its folder). */
function instanceCpu(dir: string): { php: number; db: number } {
  const cpu = { php: 0, db: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const exe = (argv[0] ?? '').split('/').pop();
      if (exe !== 'php' && exe !== 'mariadbd') continue;
      if (!argv.some((a) => a.includes(`${dir}/`))) continue;
      cpu[exe === 'php' ? 'php' : 'db'] += ticks(Number(entry)).own;
    } catch {
      // gone while we looked
    }
  }
  return cpu;
}

function logSize(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** Requests php -S accepted since `from` (its log has a line per accepted connection). */
function requestsSince(file: string, from: number): number {
  const size = logSize(file);
  if (size <= from) return 0;
  const buf = Buffer.alloc(size - from);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, from);
  } finally {
    closeSync(fd);
  }
  return buf.toString('utf8').split(' Accepted').length - 1;
}

if (out) {
  const sandbox = testSandbox();
  const dir = join(sandbox.home, sandbox.name);
  const phpLog = join(dir, 'logs', 'php.log');
  let start: { wall: number; self: NodeJS.CpuUsage; children: number; inst: { php: number; db: number }; log: number };
  beforeAll(() => {
    start = { wall: performance.now(), self: process.cpuUsage(), children: ticks('self').children, inst: instanceCpu(dir), log: logSize(phpLog) };
  });
  afterAll(() => {
    const self = process.cpuUsage(start.self);
    const inst = instanceCpu(dir);
    const file = (expect.getState().testPath ?? 'unknown').replace(`${process.cwd()}/`, '');
    const line = {
      file,
      wall: Math.round(performance.now() - start.wall),
      self: Math.round((self.user + self.system) / 1000),
      children: ticks('self').children - start.children,
      php: inst.php - start.inst.php,
      db: inst.db - start.inst.db,
      requests: requestsSince(phpLog, start.log),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
