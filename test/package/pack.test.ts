import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { asCommonJs, installed, newApp, packTarball, repoVersion, run, runAsync, typeScriptBlocks } from '../helpers/package-app.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { resolveToolsets, selectTools, tools } from '../../src/call/index.js';
import { changeStore } from '../../src/undo/change-store.js';
import { type ChangeEntry, fileJournal } from '../../src/undo/journal.js';

// A single site's tools (the network tools are listed only on a network).
const registry = selectTools(tools, {});

/**
 * The package as users get it (issue #35): `npm pack`, installed into new apps. A library-only app
 * (CommonJS, as `npm init -y` makes it) next to `@langchain/core`; apps with the agent frameworks,
 * ESM and CommonJS, whose TypeScript compiles strict and which run the README's snippets against
 * the sandbox (a scripted OpenAI server stands in for the model, through the env ChatOpenAI reads).
 */
const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const core = `@langchain/core@${repoVersion('@langchain/core')}`;
const execFileAsync = promisify(execFile);
let tarball: string;
// The agent app's packages: the peers, and what the docs' snippets import (the MCP adapters, LangGraph's SDK).
const peers = ['langchain', '@langchain/openai', '@langchain/langgraph', '@modelcontextprotocol/sdk', '@langchain/mcp-adapters', '@langchain/langgraph-sdk', '@types/node'];
/** The apps, installed side by side once the tarball is there (the baseline app needs none). */
let apps: { library: Promise<string>; coreOnly: Promise<string>; agent: Promise<string> };

beforeAll(async () => {
  const coreOnly = newApp('core-only', 'commonjs', [core]);
  coreOnly.catch(() => {}); // awaited by its test; a failure here must not be an unhandled rejection
  tarball = await packTarball();
  apps = {
    coreOnly,
    library: newApp('library', 'commonjs', [core, tarball]),
    agent: newApp('agent-app', 'module', [core, ...peers.map((p) => `${p}@${repoVersion(p)}`), tarball]),
  };
  for (const app of [apps.library, apps.agent]) app.catch(() => {});
}, 300_000);

describe('a library-only app: the toolkits next to @langchain/core', () => {
  let app: string;
  beforeAll(async () => {
    app = await apps.library;
  }, 300_000);

  it('adds two packages and under 15 MB to what @langchain/core installs, and runs no install script', async () => {
    const base = installed(await apps.coreOnly);
    const withToolkits = installed(app);
    const added = { packages: withToolkits.packages - base.packages, mb: (withToolkits.bytes - base.bytes) / 2 ** 20 };
    expect(added.packages).toBeLessThanOrEqual(20);
    expect(added.mb).toBeLessThan(15);
    const manifest = JSON.parse(readFileSync(path.join(app, 'node_modules/cms-admin-toolkit/package.json'), 'utf8'));
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[script]).toBeUndefined();
  }, 300_000);

  it('require() and import both give the toolkits, each with one copy of the app’s @langchain/core', () => {
    const site = "{ url: 'http://127.0.0.1:9', username: 'a', appPassword: 'b' }";
    const counts = `({ taxonomy: new TaxonomyToolkit({ site, journal: 'off' }).getTools().length, withJournal: new TaxonomyToolkit({ site, journal: 'j.jsonl' }).getTools().length, tool: new TaxonomyToolkit({ site, journal: 'off' }).getTools()[0] instanceof DynamicStructuredTool, registry: tools.length })`;
    writeFileSync(
      path.join(app, 'check.cjs'),
      `const { TaxonomyToolkit, tools } = require('cms-admin-toolkit');\nconst { DynamicStructuredTool } = require('@langchain/core/tools');\nconst site = ${site};\nconsole.log(JSON.stringify(${counts}));`,
    );
    writeFileSync(
      path.join(app, 'check.mjs'),
      `import { TaxonomyToolkit, tools } from 'cms-admin-toolkit';\nimport { DynamicStructuredTool } from '@langchain/core/tools';\nconst site = ${site};\nconsole.log(JSON.stringify(${counts}));`,
    );
    // TaxonomyToolkit: the taxonomy toolset (the default set's part of it); the change tools are ChangesToolkit's.
    const taxonomy = selectTools(registry, { toolsets: ['taxonomy'] });
    const expected = {
      taxonomy: taxonomy.filter((t) => !t.needsJournal).length,
      withJournal: taxonomy.length,
      tool: true,
      // The exported registry holds every tool, the network ones too.
      registry: tools.length,
    };
    expect(JSON.parse(run(process.execPath, ['check.cjs'], app))).toEqual(expected);
    expect(JSON.parse(run(process.execPath, ['check.mjs'], app))).toEqual(expected);
  });

  it('npx cms-admin works from it: tools, invoke, mcp over stdio, the tool shell without a model', async () => {
    const bin = path.join(app, 'node_modules/.bin/cms-admin');
    const site = testSite();
    const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: 'off', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
    // Every tool, the network and several-site ones too (#52.6).
    expect(JSON.parse(run(bin, ['tools', '--json'], app))).toHaveLength(tools.length);
    const tags = JSON.parse(run(bin, ['invoke', '{"tool":"get-cms-tags","params":{"limit":1}}'], app, env));
    expect(tags.result.total).toBe((await wp().get<unknown[]>('/wp/v2/tags', { per_page: 100 })).length);
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const mcp = await spawnWithInput(bin, ['mcp'], app, env, `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`, (out) => out.includes('"id":2'));
    const listed = mcp.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.id === 2);
    // One site, the default toolsets (and enable-toolset while a toolset with tools is not enabled).
    const session = selectTools(registry, { toolsets: resolveToolsets(undefined) });
    expect(listed.result.tools.filter((t: { name: string }) => t.name !== 'enable-toolset')).toHaveLength(session.length);
    const shell = await spawnWithInput(bin, ['chat'], app, env, 'get-cms-tags limit=1\n/exit\n');
    expect(shell).toContain('tool shell');
    expect(shell).toContain(String(tags.result.items[0].name));
  }, 120_000);
});

describe("the README's install lines (#60.1): the package is not on the registry, so from a checkout", () => {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Installing it from a checkout'), readme.indexOf('## Configuration'));
  // Each `npm install …` of the section, its path filled in: the run's tarball, this checkout.
  const lines = [...section.matchAll(/`(npm install [^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, ' ')).filter((line) => line.includes('/path/to/'));
  const distinct = [...new Set(lines)];
  const filled = (line: string) =>
    line
      .replace('/path/to/cms-admin-toolkit-0.1.0.tgz', tarball)
      .replace('/path/to/cms-admin-toolkit', REPO_ROOT)
      .split(' ')
      .slice(2);

  it('the tarball npm pack makes has the name the README gives', () => {
    expect(path.basename(tarball)).toBe('cms-admin-toolkit-0.1.0.tgz');
    expect(distinct).toEqual([
      'npm install /path/to/cms-admin-toolkit-0.1.0.tgz @langchain/core',
      'npm install /path/to/cms-admin-toolkit',
      'npm install -g /path/to/cms-admin-toolkit-0.1.0.tgz',
    ]);
  });

  it('the tarball line is the library app above; the link to the checkout and -g give a cms-admin that runs', async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(filled(distinct[0]!)).toEqual([tarball, '@langchain/core']);
    const linked = await newApp('linked', 'commonjs', filled(distinct[1]!));
    expect(run(path.join(linked, 'node_modules/.bin/cms-admin'), ['--version'], linked).trim()).toBe(version);
    // -g into a prefix of the test's own: the same install, without touching this machine's global folder.
    const prefix = mkdtempSync(path.join(tmpdir(), 'cms-global-'));
    await runAsync('npm', ['install', ...filled(distinct[2]!), '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'], prefix);
    expect(run(path.join(prefix, 'bin/cms-admin'), ['--version'], tmpdir()).trim()).toBe(version);
  }, 300_000);
});

describe('cms-admin mcp config in an app that installed the tarball (#60.1)', () => {
  it('prints a VS Code config naming the app’s own bin; started from / as VS Code would, it reads the site', async () => {
    const app = await apps.library;
    const site = testSite();
    const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: 'off' };
    const config = JSON.parse(run(path.join(app, 'node_modules/.bin/cms-admin'), ['mcp', 'config', 'vscode'], app, env));
    const server = config.servers.wordpress as { type: string; command: string; args: string[]; env: Record<string, string> };
    expect(server.type).toBe('stdio');
    expect(server.args.slice(0, 2)).toEqual([path.join(realpathSync(app), 'node_modules/cms-admin-toolkit/dist/cli/cms-admin.js'), 'mcp']);
    expect(JSON.stringify(config)).not.toContain(site.appPassword);
    const client = new Client({ name: 'vscode-like', version: '1.0.0' });
    const serverEnv = { ...getDefaultEnvironment(), HOME: mkdtempSync(path.join(tmpdir(), 'cms-home-')), ...server.env, CMS_APP_PASSWORD: site.appPassword };
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env: serverEnv, cwd: '/', stderr: 'pipe' }));
    try {
      const read = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
      expect(JSON.parse((read.content as Array<{ text: string }>)[0]!.text).total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('apps with the agent frameworks: ESM and CommonJS, TypeScript strict', () => {
  let root: string;
  const flavours = { esm: 'module', cjs: 'commonjs' } as const;
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const docs = readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  const blocks = [
    ...typeScriptBlocks(readme).map((code, i) => ({ name: `readme-${i + 1}`, code })),
    ...docs.flatMap((doc) =>
      typeScriptBlocks(readFileSync(path.join(REPO_ROOT, 'docs', doc), 'utf8')).map((code, i) => ({ name: `${doc.replace('.md', '')}-${i + 1}`, code })),
    ),
  ];

  beforeAll(async () => {
    root = await apps.agent;
    for (const [flavour, type] of Object.entries(flavours)) {
      const dir = path.join(root, flavour);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type }));
      for (const block of blocks)
        writeFileSync(path.join(dir, `${block.name}.ts`), flavour === 'cjs' ? asCommonJs(block.code) : `${block.code}\nexport {};\n`);
      const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, outDir: 'out', types: ['node'], skipLibCheck: true };
      writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
      writeFileSync(
        path.join(dir, 'tsconfig.bundler.json'),
        JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true }, include: ['*.ts'] }),
      );
    }
  }, 300_000);

  it('README.md and docs/ have TypeScript blocks to check', () => {
    expect(blocks.filter((b) => b.name.startsWith('readme-')).length).toBeGreaterThanOrEqual(3);
  });

  // The compiles and the types check are independent processes: side by side.
  it.concurrent.for(Object.keys(flavours))('every TypeScript block of README.md and docs/ compiles under strict as %s (nodenext), and as ESM for bundlers', { timeout: 180_000 }, async (flavour, { expect }) => {
    const dir = path.join(root, flavour);
    await Promise.all([
      runAsync(process.execPath, [TSC, '-p', 'tsconfig.json'], dir),
      flavour === 'esm' ? runAsync(process.execPath, [TSC, '-p', 'tsconfig.bundler.json'], dir) : undefined,
    ]);
    const emitted = readFileSync(path.join(dir, 'out', 'readme-1.js'), 'utf8');
    expect(emitted).toContain(flavour === 'cjs' ? 'require("cms-admin-toolkit")' : "from 'cms-admin-toolkit'");
  });

  it.concurrent('the types are right under node16 (CommonJS and ESM) and bundler (@arethetypeswrong/cli)', async ({ expect }) => {
    // node10 has no "exports": subpaths cannot resolve there, and Node ≥ 22 is required anyway.
    const out = await runAsync('npx', ['--yes', '@arethetypeswrong/cli@0.18.5', '--profile', 'node16', '--format', 'json', tarball], root);
    const report = JSON.parse(out) as { problems?: Record<string, Array<{ resolutionKind?: string }>> };
    const problems = Object.values(report.problems ?? {})
      .flat()
      .filter((problem) => problem.resolutionKind !== 'node10');
    expect(problems).toEqual([]);
  }, 180_000);

  it('cms-admin-toolkit/langgraph: the graph runs from the tarball (ESM), asks before creating an administrator, and the approval creates it; require() gives it too', async () => {
    const server = await new ScriptedOpenAI().start();
    try {
      const site = testSite();
      const username = unique('lgpack').toLowerCase().replace(/[^a-z0-9]/g, '');
      server.script({ toolCalls: [{ name: 'create-user', args: { username, email: `${username}@example.com`, role: 'administrator' } }] }, { content: 'Done.' });
      writeFileSync(
        path.join(root, 'graph-run.mjs'),
        `import { Command } from '@langchain/langgraph';
import { createAdminGraph } from 'cms-admin-toolkit/langgraph';
const graph = await createAdminGraph();
const config = { configurable: { thread_id: 'pack' } };
const asked = await graph.invoke({ messages: [{ role: 'user', content: 'make ${username} an administrator' }] }, config);
console.log(JSON.stringify(asked.__interrupt__.map((i) => i.value.action_requests[0].name)));
const done = await graph.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
console.log(done.messages.at(-1).content);
`,
      );
      const env = { ...process.env, CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: 'off', OPENAI_API_KEY: 'sk-scripted', OPENAI_BASE_URL: server.url };
      const { stdout } = await execFileAsync(process.execPath, ['graph-run.mjs'], { cwd: root, env });
      expect(stdout.trim().split('\n')).toEqual(['["create-user"]', 'Done.']);
      const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
      expect(found.map((u) => [u.username, u.roles])).toEqual([[username, ['administrator']]]);
      const cjs = await execFileAsync(process.execPath, ['-e', "console.log(typeof require('cms-admin-toolkit/langgraph').createAdminGraph)"], { cwd: root });
      expect(cjs.stdout.trim()).toBe('function');
    } finally {
      await server.stop();
    }
  }, 180_000);

  describe.each(Object.keys(flavours))("the README's snippets run against the sandbox (%s)", (flavour) => {
    let server: ScriptedOpenAI;
    let stateHome: string;
    beforeAll(async () => {
      server = await new ScriptedOpenAI().start();
      stateHome = mkdtempSync(path.join(tmpdir(), 'cms-state-'));
    });
    afterAll(() => server.stop());

    /** Runs the README's TypeScript block that holds `marker` (found by its words, not its place). */
    const snippet = async (marker: string) => {
      const found = blocks.filter((b) => b.name.startsWith('readme-') && b.code.includes(marker));
      expect(found.map((b) => b.name)).toHaveLength(1);
      const site = testSite();
      const { stdout } = await execFileAsync(process.execPath, [path.join(root, flavour, 'out', `${found[0]!.name}.js`)], {
        cwd: path.join(root, flavour),
        env: {
          ...process.env,
          CMS_URL: site.url,
          CMS_USERNAME: site.username,
          CMS_APP_PASSWORD: site.appPassword,
          OPENAI_API_KEY: 'sk-scripted',
          OPENAI_BASE_URL: server.url,
          XDG_STATE_HOME: stateHome,
          CMS_JOURNAL: '',
        },
      });
      return stdout;
    };

    it('the first snippet: the model reads the categories from the site and answers', async () => {
      server.clear();
      server.script({ toolCalls: [{ name: 'get-cms-categories', args: { hide_empty: false } }] }, { content: 'Every category has posts.' });
      expect(await snippet('Which categories have no posts?')).toContain('Every category has posts.');
      const result = server.requests.at(-1)?.messages.find((m) => m.role === 'tool');
      const categories = await wp().get<unknown[]>('/wp/v2/categories', { per_page: 100 });
      expect(JSON.parse(String(result?.content)).total).toBe(categories.length);
    });

    it('the toolkits spread together: each tool once', async () => {
      expect(await snippet('...new ChangesToolkit({ site }).getTools()')).toMatch(/^(\d+) tools, \1 names$/m);
    });

    it('the interrupt snippet: creating an administrator waits, its summary is printed, and the resume creates it', async () => {
      server.clear();
      const username = unique(`alice-${flavour}`).toLowerCase().replace(/[^a-z0-9-]/g, '-');
      const args = { username, email: `${username}@example.com`, password: `Pw-${Date.now().toString(36)}-9!xQ#k`, role: 'administrator' };
      server.script({ toolCalls: [{ name: 'create-user', args }] }, { content: 'Done.' });
      const out = await snippet("approvals: 'interrupt'");
      expect(out).toMatch(new RegExp(`${username}.*administrator`));
      const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
      expect(found.map((u) => [u.username, u.roles])).toEqual([[username, ['administrator']]]);
    });

    it('the humanInTheLoopMiddleware snippet: the question names the account and its role, the approval creates it', async () => {
      server.clear();
      const username = unique(`bob-${flavour}`).toLowerCase().replace(/[^a-z0-9-]/g, '-');
      const args = { username, email: `${username}@example.com`, password: `Pw-${Date.now().toString(36)}-7!hQ#m`, role: 'administrator' };
      server.script({ toolCalls: [{ name: 'create-user', args }] }, { content: 'Done.' });
      const out = await snippet('humanInTheLoopMiddleware({ interruptOn');
      expect(out).toMatch(new RegExp(`^create-user .*${username}.*administrator`, 'm'));
      const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
      expect(found.map((u) => [u.username, u.roles])).toEqual([[username, ['administrator']]]);
    });

    it('the ScriptedChatModel snippet: the tag is created, then undone through the default journal', async () => {
      const out = await snippet('new ScriptedChatModel(');
      expect(out).toContain('I added the tag Scripted, then took it back. (3 model calls)');
      expect(await wp().get<unknown[]>('/wp/v2/tags', { slug: 'scripted' })).toEqual([]);
      // The person's change store (#47): the interrupt snippet's create-user is there too.
      const store = path.join(stateHome, 'cms-admin', 'changes.db');
      const entries = await fileJournal(store).entries();
      const [created, undone] = entries.slice(-2) as [ChangeEntry, ChangeEntry];
      await changeStore(store).close();
      expect([created.tool, undone.tool, undone.undoes]).toEqual(['create-tag', 'undo-change', created.change_id]);
    });
  });
});

/** Runs a command with stdin, until it exits (or `done` says the output is enough). */
function spawnWithInput(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input: string, done?: (out: string) => boolean) {
  return new Promise<string>((resolve, reject) => {
    const child = execFile(cmd, args, { cwd, env: { ...process.env, ...env } });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (done?.(out)) child.kill();
    });
    child.on('error', reject);
    child.on('close', () => resolve(out));
    // A server (done given) keeps its stdin open until it has answered; a shell reads to its /exit.
    if (done) child.stdin?.write(input);
    else child.stdin?.end(input);
  });
}
