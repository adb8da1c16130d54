/**
 * What every bench script starts with (#61 folded the near-copies the scripts had): its sandbox
 * instance (a name and port of its own, each overridable from the environment), the site grown
 * by a PHP script once and kept as a snapshot, the credentials, the BENCHMARKS.md section a
 * script keeps as it is, and what a job costs beyond its wall time (heap, CPU of this process
 * and of the instance's PHP server and MariaDB, read from /proc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { packageRoot, readCredentials, resolveInstance, restoreSnapshot, saveSnapshot, siteSeed, siteUp } from '../../src/sandbox/index.js';
import { runWpScript } from '../../src/sandbox/wp-scripts.js';

export const BENCHMARKS = join(packageRoot(), 'BENCHMARKS.md');

export interface BenchInstance {
  name: string;
  port: number;
  log: (line: string) => void;
}

/** A bench's sandbox: `nameVar`/`portVar` from the environment, else the defaults; log lines tagged. */
export function benchInstance(tag: string, defaults: { name: string; port: number; nameVar?: string; portVar?: string }): BenchInstance {
  const name = (defaults.nameVar && process.env[defaults.nameVar]) || defaults.name;
  const port = Number((defaults.portVar && process.env[defaults.portVar]) || defaults.port);
  return { name, port, log: (line: string) => console.error(`[${tag}] ${line}`) };
}

/** The instance's credentials (it is up). */
export async function credentialsOf(site: BenchInstance): Promise<SandboxCredentials> {
  const creds = await readCredentials(site);
  if (!creds) throw new Error(`sandbox ${site.name} has no credentials`);
  return creds;
}

/**
 * The instance up with snapshot `snapshot`: restored when it exists, else the seeded site grown
 * by `script` (scripts/bench/…, run with WordPress loaded) and saved as it. `fresh`: grown again
 * every time (the script's answer is then always there).
 */
export async function grownSite<T = unknown>(
  site: BenchInstance,
  options: { snapshot: string; script: string; env?: Record<string, string>; fresh?: boolean },
): Promise<{ creds: SandboxCredentials; grown?: T }> {
  await siteUp(site);
  let grown: T | undefined;
  try {
    if (options.fresh) throw new Error('grow it again');
    await restoreSnapshot(site, options.snapshot);
  } catch {
    await siteSeed(site);
    grown = await runWpScript<T>(resolveInstance(site), site.port, `../bench/${options.script}`, options.env);
    site.log(`${options.script}: ${JSON.stringify(grown).slice(0, 300)}`);
    await saveSnapshot(site, options.snapshot);
  }
  return { creds: await credentialsOf(site), grown };
}

/** A section of BENCHMARKS.md as it is now (between its markers), for a run that does not measure it again. */
export async function keptSection(begin: string, end: string): Promise<string> {
  const text = await readFile(BENCHMARKS, 'utf8').catch(() => '');
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  return start >= 0 && stop > start ? `\n${text.slice(start, stop + end.length)}\n` : '';
}

/** Runs `job`, sampling this process's heap every `everyMs`: its peak growth over the heap before, in MB. */
export async function withHeapPeak<T>(job: () => Promise<T>, everyMs = 20): Promise<{ value: T; heapMb: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, everyMs);
  try {
    const value = await job();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { value, heapMb: (peak - base) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

const TICK_MS = 10; // CLK_TCK 100 on Linux

/** utime+stime of a process, in ms (0 once it is gone). */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU ms so far of an instance's `php -S` processes and its mariadbd (their command lines name its folder). */
export function instanceCpuMs(site: BenchInstance): { php: number; db: number } {
  const dir = resolveInstance(site).dir;
  const cpu = { php: 0, db: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const exe = (argv[0] ?? '').split('/').pop();
      if ((exe !== 'php' && exe !== 'mariadbd') || !argv.some((a) => a.includes(`${dir}/`))) continue;
      cpu[exe === 'php' ? 'php' : 'db'] += processCpuMs(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return cpu;
}

/** CPU of the whole job (this process, the site's PHP server and MariaDB) while `job` runs, and its wall time. */
export async function withCpu<T>(site: BenchInstance, job: () => Promise<T>): Promise<{ value: T; ms: number; cpu: { node: number; php: number; db: number } }> {
  const inst = instanceCpuMs(site);
  const own = process.cpuUsage();
  const started = performance.now();
  const value = await job();
  const ms = performance.now() - started;
  const used = process.cpuUsage(own);
  const after = instanceCpuMs(site);
  return { value, ms, cpu: { node: (used.user + used.system) / 1000, php: after.php - inst.php, db: after.db - inst.db } };
}
