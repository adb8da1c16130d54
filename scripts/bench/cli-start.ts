import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { packageRoot } from '../../src/package-root.js';

/**
 * Start-up of the built CLI and of the package's entries: CPU time (user + sys) of each command,
 * and its ratio to `node -e 0` measured in the same rounds. CPU time, not wall time: the machine
 * the bench runs on is shared, and a loaded machine stretches wall time far more than CPU time.
 * Each round runs every command once, so load changes during the run hit them alike.
 */
const BIN = 'dist/cli/cms-admin.js';
const COMMANDS = {
  node: ['-e', '0'],
  help: [BIN, '--help'],
  // Rejected by the registry before any site setting or request (exit 2).
  invoke: [BIN, 'invoke', '{"tool":"no-such-tool"}'],
  // A valid call up to WordPress's first answer: the site is a loopback server answering 401.
  request: [BIN, 'invoke', '{"tool":"list-taxonomies","params":{}}'],
  langchain: ['--input-type=module', '-e', "await import('langchain'); await import('@langchain/openai')"],
  mainEntry: ['--input-type=module', '-e', "await import('./dist/index.js')"],
  agentEntry: ['--input-type=module', '-e', "await import('./dist/agent/index.js')"],
  mcpEntry: ['--input-type=module', '-e', "await import('./dist/mcp/index.js')"],
} as const;

export type CliStart = Record<keyof typeof COMMANDS, number> & { load: number };

export async function benchCliStart(runs: number, node: string = process.execPath): Promise<CliStart> {
  const site = createServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"code":"rest_not_logged_in","message":"You are not currently logged in.","data":{"status":401}}');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const env = {
    ...process.env,
    CMS_URL: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    CMS_USERNAME: 'bench',
    CMS_APP_PASSWORD: 'bench bench bench bench',
    CMS_JOURNAL: 'off',
    // A CA bundle for every TLS start (some CI images set it) is not the CLI's cost.
    NODE_EXTRA_CA_CERTS: '',
  };
  const totals = Object.fromEntries(Object.keys(COMMANDS).map((k) => [k, 0])) as Record<keyof typeof COMMANDS, number>;
  const load = loadavg()[0] ?? 0;
  try {
    // One round first, not counted: it fills Node's compile cache for this build.
    for (let round = -1; round < runs; round++) {
      for (const [key, args] of Object.entries(COMMANDS) as Array<[keyof typeof COMMANDS, readonly string[]]>) {
        const cpu = await childCpu(node, args, env);
        if (round >= 0) totals[key] += cpu / runs;
      }
    }
  } finally {
    site.close();
  }
  return { ...totals, load: (load + (loadavg()[0] ?? 0)) / 2 };
}

/** CPU ms of one run of `node args`: the change in this process's reaped children's time. */
async function childCpu(node: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const before = childrenCpuMs();
  const child = spawn(node, args, { cwd: packageRoot(), env, stdio: 'ignore' });
  await new Promise((resolve, reject) => child.on('exit', resolve).on('error', reject));
  return childrenCpuMs() - before;
}

// Linux: /proc/self/stat's cutime and cstime (fields 16, 17) in clock ticks. The kernel keeps
// them in nanoseconds, so the sum over many runs is exact to a tick; hence means, not medians.
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

/** Node binaries to time: this one, and each of CMS_BENCH_NODE (comma-separated binaries). */
export function benchNodes(): Array<{ node: string; version: string }> {
  const extra = (process.env.CMS_BENCH_NODE ?? '').split(',').filter(Boolean);
  return [process.execPath, ...extra].map((node) => ({ node, version: execFileSync(node, ['-v'], { encoding: 'utf8' }).trim() }));
}

export const CLI_BEGIN = '<!-- cli-start -->';
export const CLI_END = '<!-- /cli-start -->';

/** BENCHMARKS.md's start-up section: one column per Node version, CPU ms and × `node -e 0`. */
export function cliStartSection(rows: Array<{ version: string; cli: CliStart }>, runs: number): string {
  const cell = (cli: CliStart, key: keyof typeof COMMANDS) =>
    key === 'node' ? `${cli.node.toFixed(0)} ms` : `${cli[key].toFixed(0)} ms (${(cli[key] / cli.node).toFixed(1)}×)`;
  const line = (label: string, key: keyof typeof COMMANDS) => `| ${label} | ${rows.map((r) => cell(r.cli, key)).join(' | ')} |`;
  return `${CLI_BEGIN}
## CLI start-up (built \`dist/\`, CPU time, mean of ${runs} rounds)

Target: \`cms-admin invoke\` ≤ 300 ms on Node 22 and 24 on a quiet machine, and ≤ 4× \`node -e 0\` in the
same run on every Node. CPU time (user + sys) of each command and, in brackets, its ratio to \`node -e 0\`
in the same rounds. \`npm run bench:start\`; \`CMS_BENCH_NODE=<node>,<node>\` adds columns.

| command | ${rows.map((r) => `Node ${r.version}`).join(' | ')} |
|---|${rows.map(() => '---|').join('')}
${line('`node -e 0` (Node itself)', 'node')}
${line('`cms-admin --help`', 'help')}
${line('`cms-admin invoke` (rejected before any request)', 'invoke')}
${line('`cms-admin invoke` list-taxonomies, up to WordPress’s first answer (loopback, 401)', 'request')}
${line('importing `langchain` + `@langchain/openai` (what `invoke` avoids)', 'langchain')}
${line("importing the package's main entry `cms-admin-toolkit` (toolkits, registry, client, envelope)", 'mainEntry')}
${line('importing `cms-admin-toolkit/agent` (chat runner: langchain, @langchain/openai)', 'agentEntry')}
${line('importing `cms-admin-toolkit/mcp` (MCP server, SDK)', 'mcpEntry')}
| load average during the run | ${rows.map((r) => r.cli.load.toFixed(1)).join(' | ')} |
${CLI_END}`;
}
