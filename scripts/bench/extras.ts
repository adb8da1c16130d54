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

/** Start-up of the built CLI: an invoke that fails validation (no network) vs loading langchain. */
export function benchCliStart(runs: number) {
  const root = packageRoot();
  const time = (args: string[]) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      try {
        execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
      } catch {
        // exit 2 is the expected answer to the invalid envelope
      }
      samples.push(performance.now() - started);
    }
    return median(samples);
  };
  return {
    node: time(['-e', '0']),
    invoke: time(['dist/cli/bin.js', 'invoke', '{"tool":"no-such-tool"}']),
    help: time(['dist/cli/bin.js', '--help']),
    langchain: time(['--input-type=module', '-e', "await import('langchain'); await import('@langchain/openai')"]),
    // What an app pays to import the package: the main entry, and each subpath on its own.
    mainEntry: time(['--input-type=module', '-e', "await import('./dist/index.js')"]),
    agentEntry: time(['--input-type=module', '-e', "await import('./dist/agent/index.js')"]),
    mcpEntry: time(['--input-type=module', '-e', "await import('./dist/mcp.js')"]),
  };
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
