import { type ChildProcess, spawn } from 'node:child_process';
import { REPO_ROOT } from './cli.js';
import { cliArgs } from './cli-bin.js';

/** A `cms-admin mcp --http …` child process, its address once it serves, and what it printed. */
export interface McpHttpChild {
  child: ChildProcess;
  url: string;
  /** Its stderr so far (for recordOutput: the secrets check reads it). */
  stderr(): string;
}

/**
 * Starts `cms-admin mcp --http <args>` (the built bin) with exactly `env`, and resolves with its
 * address once it prints "serving MCP (Streamable HTTP) at …"; rejects, naming its output, if it
 * exits first.
 */
export function startMcpHttp(args: readonly string[], env: NodeJS.ProcessEnv): Promise<McpHttpChild> {
  const child = spawn(process.execPath, [...cliArgs(), 'mcp', '--http', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d) => {
      stderr += d;
      const m = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(stderr);
      if (m) resolve({ child, url: m[1] as string, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`mcp --http exited (${code}): ${stderr}`)));
  });
}
