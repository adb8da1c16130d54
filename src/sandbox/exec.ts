import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin (used to pass SQL and secrets without argv). */
  input?: string;
  /** Forward child's stderr lines to this callback as they arrive. */
  onStderr?: (line: string) => void;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Spawn without a shell (arguments are never interpolated) and collect output. */
export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (!opts.onStderr) return;
      partial += d;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) opts.onStderr(line);
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
    child.stdin.on('error', () => {
      // child exited before reading stdin; its exit code tells the story
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Like run(), but rejects with the tail of stderr when the exit code is not 0. */
export async function runChecked(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const res = await run(cmd, args, opts);
  if (res.code !== 0) {
    // Last line first (the CLI shows only the first line of an error), then some context.
    const lines = (res.stderr.trim() || res.stdout.trim()).split('\n').filter((l) => l.trim());
    const last = lines.at(-1) ?? 'no output';
    const context = lines.slice(-8, -1).join('\n');
    throw new Error(
      `${cmd} ${args.find((a) => a.endsWith('.php')) ?? args[0] ?? ''} exited with code ${res.code}: ${last}${context ? `\n${context}` : ''}`,
    );
  }
  return res;
}

/** Debian puts mariadbd in /usr/sbin, which is not on a normal user's PATH. */
const EXTRA_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

export function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function requireBinary(name: string): string {
  const found = findBinary(name);
  if (!found) throw new Error(`${name} not found; run ensurePrerequisites() / \`cms-admin site up\` to install it`);
  return found;
}

/**
 * How to run npm: its own script under this Node (`node npm-cli.js`), found beside the Node
 * binary or from `npm_execpath`, so nothing depends on the shell. On Windows `npm` on PATH is a
 * `.cmd` (or a shell script) that spawn() without a shell cannot run
 * (https://nodejs.org/en/blog/vulnerability/april-2024-security-releases-2). Elsewhere `npm` on
 * PATH is the fallback. undefined when npm cannot be found.
 */
export function npmCommand(
  env: NodeJS.ProcessEnv = process.env,
  execPath = process.execPath,
  platform: NodeJS.Platform = process.platform,
  exists: (path: string) => boolean = existsSync,
): { cmd: string; args: string[] } | undefined {
  const nodeDir = dirname(execPath);
  const scripts = [
    env.npm_execpath,
    join(nodeDir, 'node_modules', 'npm', 'bin', 'npm-cli.js'), // Windows installs
    join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'), // Unix installs
  ];
  // npm_execpath is npx-cli.js under npx, and may be pnpm or yarn: only npm's own script will do.
  const script = scripts.find((path) => path && /npm-cli\.c?js$/.test(path) && exists(path));
  if (script) return { cmd: execPath, args: [script] };
  const bin = platform === 'win32' ? undefined : findBinary('npm');
  return bin ? { cmd: bin, args: [] } : undefined;
}
