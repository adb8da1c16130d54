import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface DetachedOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr are appended here. */
  logFile: string;
}

/**
 * Start a long-running server in its own session/process group (setsid via
 * `detached`), with output going to a log file, so it outlives this Node
 * process and the whole group can be signalled at once.
 */
export function spawnDetached(cmd: string, args: readonly string[], opts: DetachedOptions): number {
  const fd = openSync(opts.logFile, 'a');
  try {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: ['ignore', fd, fd],
      windowsHide: true, // detached on Windows would otherwise open a console window
    });
    child.once('error', () => {}); // reported below via the missing pid; avoid an unhandled 'error' event
    if (child.pid === undefined) throw new Error(`failed to start ${cmd}`);
    child.unref();
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

interface ProcStat {
  state: string;
  pgrp: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm (field 2) may contain spaces and parens; fields after the last ')' are fixed.
    const rest = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0] ?? '', pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

/**
 * A pid counts as alive if it exists, is not a zombie (PID 1 in some
 * containers never reaps orphans) and, when given, its command line contains
 * `marker` as one whole argument (guards against pid reuse after a reboot or crash).
 */
export function isAlive(pid: number | undefined, marker?: string): boolean {
  if (!pid || pid <= 0) return false;
  const stat = procStat(pid);
  if (!stat || stat.state === 'Z' || stat.state === 'X') return false;
  if (!marker) return true;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
  } catch {
    return false;
  }
}

/** The entries of /proc; none where there is no /proc (macOS, Windows: no native servers there). */
function procEntries(): string[] {
  try {
    return readdirSync('/proc');
  } catch {
    return [];
  }
}

/** Live (non-zombie) members of a process group, e.g. `php -S` and its forked workers. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of procEntries()) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(Number(entry));
  }
  return members;
}

/**
 * Live processes running `program` (basename of argv[0], e.g. "php" or
 * "mariadbd") with `arg` as one whole argument, e.g. `--datadir=<dir>` or
 * the `-t <wordpress dir>` docroot: finds an instance's servers even when a
 * pid file is missing or stale. Matching the program too keeps a
 * `pgrep -f <dir>` (or an editor) from ever being mistaken for a server.
 */
export function processesWithArg(program: string, arg: string): number[] {
  const found: number[] = [];
  for (const entry of procEntries()) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const exe = (argv[0] ?? '').split('/').pop();
      if (exe === program && argv.includes(arg) && isAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // process exited while we looked
    }
  }
  return found;
}

/** Process group id of a live process. */
export function pgidOf(pid: number): number | undefined {
  return procStat(pid)?.pgrp;
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/**
 * Signal a server started by spawnDetached() and everything it started: its process group on
 * Unix. Windows has no process groups and no SIGTERM (Node's kill() terminates at once there),
 * so there `taskkill /T /F` ends the whole tree.
 */
export function signalTree(pid: number, sig: NodeJS.Signals, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  signal(-pid, sig);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Poll `check` until it returns true or `timeoutMs` passes; returns the final result. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  stepMs = 25,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(stepMs);
  }
}

export async function readPidFile(file: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(file, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
