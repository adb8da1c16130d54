import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApp, packTarball, run } from '../helpers/package-app.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, wp } from '../helpers/site.js';

/**
 * #52.15: the peer ranges are as wide as what is tested. pack.test.ts installs the tarball with the
 * versions this checkout locks (the top of each range CI meets); this installs it with the LOWEST
 * version of every peer range package.json states (read from it: a widened range is tested at its
 * new floor), then runs an agent of those versions against the sandbox: createAgent (langchain),
 * ChatOpenAI (@langchain/openai) over a scripted OpenAI server, a tool of the toolkits
 * (@langchain/core), a LangGraph checkpointer (@langchain/langgraph), the served graph
 * (cms-admin-toolkit/langgraph: langchain's humanInTheLoopMiddleware), and an MCP server of each
 * SDK answering tools/list.
 */
const REPO_ROOT = new URL('../..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
};

/** The lowest version a range admits: `^1.4.0` → 1.4.0. Other forms fail here, to be taught. */
function floorOf(name: string, range: string): string {
  const m = /^\^(\d+\.\d+\.\d+)$/.exec(range);
  if (!m) throw new Error(`${name}: peer range ${range} is not ^x.y.z; teach peer-floors.test.ts its lowest version`);
  return m[1] as string;
}
const floors = Object.fromEntries(
  Object.entries(manifest.peerDependencies).map(([name, range]) => [name, floorOf(name, range)]),
);

const execFileAsync = promisify(execFile);
let app: string;
let server: ScriptedOpenAI;

beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
  const tarball = await packTarball();
  app = await newApp('peer-floors', 'module', [...Object.entries(floors).map(([name, v]) => `${name}@${v}`), tarball]);
}, 300_000);
afterAll(() => server?.stop());

describe('an app with the lowest version of every peer range', () => {
  it('installs them side by side, with no peer conflict npm reports', () => {
    for (const [name, version] of Object.entries(floors)) {
      const installed = JSON.parse(readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8')).version;
      expect(installed, name).toBe(version);
    }
    // `npm ls` exits non-zero on an invalid or missing peer (run throws with npm's message).
    expect(() => run('npm', ['ls', '--omit=dev'], app)).not.toThrow();
  });

  it('runs an agent of them against the sandbox: the model calls a tool, the tool reads the site', async () => {
    writeFileSync(
      path.join(app, 'agent.mjs'),
      `import { createAgent } from 'langchain';
import { ChatOpenAI } from '@langchain/openai';
import { MemorySaver } from '@langchain/langgraph';
import { TaxonomyToolkit } from 'cms-admin-toolkit';

const site = { url: process.env.CMS_URL, username: process.env.CMS_USERNAME, appPassword: process.env.CMS_APP_PASSWORD };
const agent = createAgent({
  model: new ChatOpenAI({ model: 'gpt-4.1-mini' }),
  tools: new TaxonomyToolkit({ site }).getTools(),
  checkpointer: new MemorySaver(),
});
const result = await agent.invoke(
  { messages: [{ role: 'user', content: 'How many tags?' }] },
  { configurable: { thread_id: 'floors' } },
);
console.log(result.messages.at(-1)?.content);
`,
    );
    server.clear();
    server.script({ toolCalls: [{ name: 'get-cms-tags', args: { limit: 1 } }] }, { content: 'Counted the tags.' });
    const site = testSite();
    const { stdout } = await execFileAsync(process.execPath, ['agent.mjs'], {
      cwd: app,
      env: {
        ...process.env,
        CMS_URL: site.url,
        CMS_USERNAME: site.username,
        CMS_APP_PASSWORD: site.appPassword,
        CMS_JOURNAL: 'off',
        OPENAI_API_KEY: 'sk-scripted',
        OPENAI_BASE_URL: server.url,
      },
    });
    expect(stdout).toContain('Counted the tags.');
    const answer = server.requests.at(-1)?.messages.find((m) => m.role === 'tool');
    const tags = await wp().get<unknown[]>('/wp/v2/tags', { per_page: 100 });
    expect(JSON.parse(String(answer?.content)).total).toBe(tags.length);
  }, 120_000);

  it('runs the served graph (cms-admin-toolkit/langgraph): the approval is asked with LangChain’s HITL request, then the call runs', async () => {
    writeFileSync(
      path.join(app, 'graph.mjs'),
      `import { Command } from '@langchain/langgraph';
import { createAdminGraph } from 'cms-admin-toolkit/langgraph';
const graph = await createAdminGraph();
const config = { configurable: { thread_id: 'floors' } };
const asked = await graph.invoke({ messages: [{ role: 'user', content: 'Delete the tag' }] }, config);
console.log(JSON.stringify(asked.__interrupt__.map((i) => [i.value.actionRequests[0].name, i.value.review_configs[0].allowed_decisions])));
const done = await graph.invoke(new Command({ resume: { decisions: [{ type: 'reject', message: 'Keep it.' }] } }), config);
console.log(done.messages.at(-1).content);
`,
    );
    const tag = await wp().post<{ id: number }>('/wp/v2/tags', { name: `Floors ${Date.now().toString(36)}` });
    server.clear();
    server.script({ toolCalls: [{ name: 'delete-tag', args: { id: tag.id } }] }, { content: 'Kept.' });
    const site = testSite();
    const { stdout } = await execFileAsync(process.execPath, ['graph.mjs'], {
      cwd: app,
      env: { ...process.env, CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: 'off', OPENAI_API_KEY: 'sk-scripted', OPENAI_BASE_URL: server.url },
    });
    expect(stdout.trim().split('\n')).toEqual(['[["delete-tag",["approve","edit","reject"]]]', 'Kept.']);
    expect((await wp().get<Array<{ id: number }>>('/wp/v2/tags', { include: [tag.id] })).map((t) => t.id)).toEqual([tag.id]);
    await wp().delete(`/wp/v2/tags/${tag.id}`, { force: true });
  }, 120_000);

  it('serves MCP with both SDKs: a 2025-era client lists the tools and calls one against the sandbox', async () => {
    // serveStdio: @modelcontextprotocol/server's stdio, and the SDK 1.x server for 2025-era clients.
    writeFileSync(
      path.join(app, 'mcp.mjs'),
      `import { createContext } from 'cms-admin-toolkit';
import { serveStdio } from 'cms-admin-toolkit/mcp';
const site = { url: process.env.CMS_URL, username: process.env.CMS_USERNAME, appPassword: process.env.CMS_APP_PASSWORD };
await serveStdio(createContext(site));
`,
    );
    const site = testSite();
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get-cms-tags', arguments: { limit: 1 } } },
    ];
    const out = await new Promise<string>((resolve, reject) => {
      const child = execFile(process.execPath, ['mcp.mjs'], {
        cwd: app,
        env: {
          ...process.env,
          CMS_URL: site.url,
          CMS_USERNAME: site.username,
          CMS_APP_PASSWORD: site.appPassword,
          CMS_JOURNAL: 'off',
        },
      });
      let text = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('"id":3')) child.kill();
      });
      child.on('error', reject);
      child.on('close', () => resolve(text));
      child.stdin?.write(`${messages.map((m) => JSON.stringify(m)).join('\n')}\n`);
    });
    const answers = out
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const listed = answers.find((m) => m.id === 2)?.result?.tools as Array<{ name: string }>;
    expect(listed.map((t) => t.name)).toContain('get-cms-tags');
    const called = answers.find((m) => m.id === 3)?.result;
    const tags = await wp().get<unknown[]>('/wp/v2/tags', { per_page: 100 });
    expect(JSON.parse(called.content[0].text).total).toBe(tags.length);
  }, 60_000);
});
