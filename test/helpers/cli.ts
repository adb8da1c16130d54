import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordOutput } from './output-log.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cms-admin` from source (via tsx), as a user would from a shell. */
export function runCli(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'src/cli/main.ts'), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      // A variable given as undefined is left out (to run as if it were not set).
      env: Object.fromEntries(Object.entries({ ...process.env, ...options.env }).filter(([, v]) => v !== undefined)),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      recordOutput(stdout);
      recordOutput(stderr);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
