import { ChatOpenAI } from '@langchain/openai';
import { getEncoding } from 'js-tiktoken';
import { ChatSession } from '../../src/agent/runner.js';
import { WordPressClient } from '../../src/client/index.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { ScriptedOpenAI } from '../../test/helpers/scripted-openai.js';
import { callTool, freshContext, measure } from './measure.js';

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

export { benchCliStart, benchNodes, CLI_BEGIN, CLI_END, type CliStart, cliStartSection } from './cli-start.js';

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
