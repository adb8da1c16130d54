import { execFileSync } from 'node:child_process';
import { ChatOpenAI } from '@langchain/openai';
import { getEncoding } from 'js-tiktoken';
import { ChatSession } from '../../src/agent/runner.js';
import { WordPressClient } from '../../src/client/index.js';
import { packageRoot, type SandboxCredentials } from '../../src/sandbox/index.js';
import { ScriptedOpenAI } from '../../test/helpers/scripted-openai.js';
import { callTool, freshContext, median, measure } from './measure.js';

/** Listing 1,000+ categories: every page through next_cursor vs WordPress's pages read directly. */
export async function benchListing(site: SandboxCredentials, runs: number) {
  const concurrent = await measure(site, runs, async () => null, async (c) => {
    let page = (await callTool(c, 'get-cms-categories', {})) as { total: number; next_cursor: string | null };
    const total = page.total;
    while (page.next_cursor) page = (await callTool(c, 'get-cms-categories', { cursor: page.next_cursor })) as typeof page;
    return { total };
  });
  const total = (concurrent.lastOutput as { total: number }).total;
  const sequential = await measure(site, runs, async () => null, async () => {
    const client = new WordPressClient({ ...site, concurrency: 1 });
    return client.all('/wp/v2/categories', { _fields: 'id,name,slug,parent,description,count', hide_empty: false });
  });
  return { total, concurrent, sequential };
}

/** list-users with registered_after stops paging at the cutoff. */
export async function benchUsersCutoff(site: SandboxCredentials, runs: number, cutoff: string) {
  const all = await measure(site, runs, async () => null, (c) => callTool(c, 'list-users', {}));
  const recent = await measure(site, runs, async () => null, (c) => callTool(c, 'list-users', { registered_after: cutoff }));
  return {
    all: { ...all, total: (all.lastOutput as { total: number }).total },
    recent: { ...recent, total: (recent.lastOutput as { total: number }).total },
  };
}

/** Bytes returned to the model for 50 users vs WordPress's raw JSON for the same users. */
export async function benchUserOutputSize(site: SandboxCredentials) {
  const context = await freshContext(site);
  const raw = await context.client.get<Array<{ id: number }>>('/wp/v2/users', { context: 'edit', per_page: 50, orderby: 'id' });
  const ids = new Set(raw.map((u) => u.id));
  const ours = (await callTool(context, 'list-users', {})) as { items: Array<{ id: number }> };
  const same = ours.items.filter((u) => ids.has(u.id));
  const rawBytes = Buffer.byteLength(JSON.stringify(raw));
  const ourBytes = Buffer.byteLength(JSON.stringify({ total: same.length, items: same }));
  return { users: same.length, rawBytes, ourBytes, ratio: rawBytes / ourBytes };
}

/**
 * Start-up of the built CLI: an invoke that fails validation (no network) vs loading langchain,
 * with the Node binary `node` (default: the one running the bench).
 */
export function benchCliStart(runs: number, node: string = process.execPath) {
  const root = packageRoot();
  const time = (args: string[]) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      try {
        execFileSync(node, args, { cwd: root, stdio: 'ignore' });
      } catch {
        // exit 2 is the expected answer to the invalid envelope
      }
      samples.push(performance.now() - started);
    }
    return median(samples);
  };
  return {
    node: time(['-e', '0']),
    invoke: time(['dist/cli/cms-admin.js', 'invoke', '{"tool":"no-such-tool"}']),
    help: time(['dist/cli/cms-admin.js', '--help']),
    langchain: time(['--input-type=module', '-e', "await import('langchain'); await import('@langchain/openai')"]),
    // What an app pays to import the package: the main entry, and each subpath on its own.
    mainEntry: time(['--input-type=module', '-e', "await import('./dist/index.js')"]),
    agentEntry: time(['--input-type=module', '-e', "await import('./dist/agent/index.js')"]),
    mcpEntry: time(['--input-type=module', '-e', "await import('./dist/mcp/index.js')"]),
  };
}

export type CliStart = ReturnType<typeof benchCliStart>;

/** Node binaries to time the CLI with: this one, and CMS_BENCH_NODE (e.g. Node 24, as CI installs it) if set. */
export function benchNodes(): Array<{ node: string; version: string }> {
  const nodes = [process.execPath, process.env.CMS_BENCH_NODE].filter((n): n is string => Boolean(n));
  return nodes.map((node) => ({ node, version: execFileSync(node, ['-v'], { encoding: 'utf8' }).trim() }));
}

export const CLI_BEGIN = '<!-- cli-start -->';
export const CLI_END = '<!-- /cli-start -->';

/** BENCHMARKS.md's start-up section: one column per Node version. */
export function cliStartSection(rows: Array<{ version: string; cli: CliStart }>, runs: number): string {
  const line = (label: string, key: keyof CliStart) => `| ${label} | ${rows.map((r) => `${r.cli[key].toFixed(0)} ms`).join(' | ')} |`;
  return `${CLI_BEGIN}
## CLI start-up (built \`dist/\`, median of ${runs})

Target: \`cms-admin invoke\` ≤ 300 ms. The bin turns on Node's compile cache (Node 22.1 and later), so runs
after the first load compiled code; Node 20 has no such cache. \`CMS_BENCH_NODE=<node binary>\` adds a column.

| command | ${rows.map((r) => `Node ${r.version}`).join(' | ')} |
|---|${rows.map(() => '---|').join('')}
${line('`node -e 0` (Node itself)', 'node')}
${line('`cms-admin --help`', 'help')}
${line('`cms-admin invoke` (rejected before any request)', 'invoke')}
${line('importing `langchain` + `@langchain/openai` (what `invoke` avoids)', 'langchain')}
${line("importing the package's main entry `cms-admin-toolkit` (toolkits, registry, client, envelope)", 'mainEntry')}
${line('importing `cms-admin-toolkit/agent` (chat runner: langchain, @langchain/openai)', 'agentEntry')}
${line('importing `cms-admin-toolkit/mcp` (MCP server, SDK)', 'mcpEntry')}
${CLI_END}`;
}

/** What the model is sent for all 20 tools, captured at a scripted OpenAI-compatible server. */
export async function benchToolSchemas(site: SandboxCredentials) {
  const server = await new ScriptedOpenAI().start();
  try {
    const context = await freshContext(site);
    const model = new ChatOpenAI({ model: 'scripted', apiKey: 'bench', configuration: { baseURL: server.url }, maxRetries: 0 });
    const session = new ChatSession({ model, context, approver: async () => ({ approved: true }), systemPrompt: '.' });
    server.script({ content: 'ok' });
    await session.turn('hi');
    const tools = server.requests[0]?.tools ?? [];
    const text = JSON.stringify(tools);
    const tokens = getEncoding('o200k_base').encode(text).length;
    return { tools: tools.length, chars: text.length, tokens };
  } finally {
    await server.stop();
  }
}
