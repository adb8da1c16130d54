import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './cli.js';
import { recordOutput } from './output-log.js';

/**
 * LangGraph's own dev server (`npx @langchain/langgraph-cli dev`, the pinned devDependency) serving
 * this checkout's `langgraph.json`, as a developer starts it: bound to 127.0.0.1 on a port the
 * system gives (`--port 0`; the port is read from its "Server running at" line), no browser, no
 * reload, no analytics. It runs in a project folder of the test's (the checkout's langgraph.json
 * with its graph paths made absolute, node_modules linked: the server resolves
 * `@langchain/langgraph` from the project folder), where it keeps its threads (`.langgraph_api/`).
 */
export function langGraphProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cms-langgraph-'));
  const config = JSON.parse(readFileSync(path.join(REPO_ROOT, 'langgraph.json'), 'utf8')) as { graphs: Record<string, string> };
  const graphs = Object.fromEntries(Object.entries(config.graphs).map(([id, spec]) => [id, path.resolve(REPO_ROOT, spec)]));
  writeFileSync(path.join(dir, 'langgraph.json'), JSON.stringify({ ...config, graphs }, null, 2));
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

export interface DevServer {
  url: string;
  output(): string;
  /**
   * SIGINT to its process group (Ctrl-C: it writes its state, given 3 s, then closes its port), or
   * SIGKILL (a crash: nothing more is written); resolves once it stopped serving.
   */
  stop(signal?: 'SIGINT' | 'SIGKILL'): Promise<void>;
  /** Resolves once its folder's state files (`.langgraph_api/`) hold `text` (each is written 3 s after a change). */
  written(text: string): Promise<void>;
}

export async function startDevServer(project: string, env: NodeJS.ProcessEnv): Promise<DevServer> {
  const bin = path.join(REPO_ROOT, 'node_modules', '.bin', 'langgraphjs');
  const child: ChildProcess = spawn(bin, ['dev', '--host', '127.0.0.1', '--port', '0', '--no-browser', '--no-reload', '--config', path.join(project, 'langgraph.json')], {
    cwd: project,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, LANGGRAPH_CLI_NO_ANALYTICS: '1', BROWSER: 'none', NO_COLOR: '1', FORCE_COLOR: '0', LANGSMITH_TRACING: 'false' },
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the dev server did not start in 120 s:\n${out.slice(-3000)}`)), 120_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const bound = /Server running at ([0-9.]+:[0-9]+)/.exec(out);
      if (bound) {
        clearTimeout(timer);
        resolve(`http://${bound[1]}`);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(() => reject(new Error(`the dev server exited:\n${out.slice(-3000)}`)));
  });
  return {
    url,
    output: () => out,
    async written(text: string) {
      const files = ['.langgraphjs_ops.json', '.langgraphjs_api.checkpointer.json'].map((f) => path.join(project, '.langgraph_api', f));
      const holds = (file: string) => existsSync(file) && readFileSync(file, 'utf8').includes(text);
      for (let i = 0; i < 300 && !files.every(holds); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      if (!files.every(holds)) throw new Error(`the dev server did not write ${text} to ${files.join(', ')} in 30 s`);
    },
    async stop(signal = 'SIGINT') {
      try {
        process.kill(-(child.pid as number), signal);
      } catch {
        // already gone
      }
      await exited;
      // Its server process flushes its state, then closes the port (langgraph-api's cleanup): wait for that.
      for (let i = 0; i < 600 && (await answers(url)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      recordOutput(out);
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/ok`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}
