import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { selectTools, tools as registry } from '../../src/tools/index.js';

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

it('npm pack gives a package that installs into a new project and imports (ESM and types)', {
  timeout: 300_000,
}, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cms-pack-'));
  run('npm', ['pack', '--silent', '--pack-destination', dir], REPO_ROOT);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  expect(tarball).toBeTruthy();

  const project = path.join(dir, 'consumer');
  run('mkdir', ['-p', project], dir);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // The app brings its own @langchain/core (a peer dependency): the package must use that copy.
  const core = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/@langchain/core/package.json'), 'utf8'));
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--silent',
      `@langchain/core@${core.version}`,
      path.join(dir, tarball!),
    ],
    project,
  );
  expect(existsSync(path.join(project, 'node_modules/cms-admin-toolkit/node_modules/@langchain/core'))).toBe(false);

  // ESM import at run time: the toolkits build their tools without touching the network.
  writeFileSync(
    path.join(project, 'check.mjs'),
    `import { TaxonomyToolkit, UserToolkit, invoke, WordPressClient, tools } from 'cms-admin-toolkit';
const site = { url: 'http://127.0.0.1:9', username: 'a', appPassword: 'b' };
const out = await invoke({ tool: 'nope' }, { client: new WordPressClient(site) });
console.log(JSON.stringify({ taxonomy: new TaxonomyToolkit({ site }).getTools().length, users: new UserToolkit({ site }).getTools().length, registry: tools.length, unknown: out.error.code }));`,
  );
  expect(JSON.parse(run(process.execPath, ['check.mjs'], project))).toEqual({
    taxonomy: selectTools(registry, { toolkit: 'taxonomy' }).length,
    users: selectTools(registry, { toolkit: 'users' }).length,
    registry: registry.length,
    unknown: 'unknown_tool',
  });

  // Subpaths: the agent runner and the MCP server, built against the app's @langchain/core.
  writeFileSync(
    path.join(project, 'subpaths.mjs'),
    `import { BaseToolkit, DynamicStructuredTool } from '@langchain/core/tools';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { TaxonomyToolkit, WordPressClient } from 'cms-admin-toolkit';
import { ChatSession, approveAll, createChatModel } from 'cms-admin-toolkit/agent';
import { createMcpServer } from 'cms-admin-toolkit/mcp';
const site = { url: 'http://127.0.0.1:9', username: 'a', appPassword: 'b' };
const toolkit = new TaxonomyToolkit({ site });
const model = createChatModel({ model: 'gpt-4.1-mini', apiKey: 'x', baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 1000 });
const session = new ChatSession({ model, context: { client: new WordPressClient(site) }, approver: approveAll });
const server = createMcpServer({ client: new WordPressClient(site) });
console.log(JSON.stringify({
  toolkit: toolkit instanceof BaseToolkit,
  tools: toolkit.getTools().every((t) => t instanceof DynamicStructuredTool),
  model: model instanceof BaseChatModel,
  session: session.toolNames.length,
  mcp: typeof server.connect,
}));`,
  );
  expect(JSON.parse(run(process.execPath, ['subpaths.mjs'], project))).toEqual({
    toolkit: true,
    tools: true,
    model: true,
    session: registry.length,
    mcp: 'function',
  });

  // Types: a TypeScript consumer compiles against the package's declarations.
  writeFileSync(
    path.join(project, 'check.ts'),
    `import { TaxonomyToolkit, invoke, WordPressClient, type ToolDefinition, type ToolOutcome } from 'cms-admin-toolkit';
const client: WordPressClient = new WordPressClient({ url: 'http://x', username: 'a', appPassword: 'b' });
const toolkit = new TaxonomyToolkit({ context: { client } });
const names: string[] = toolkit.getTools().map((t) => t.name);
const outcome: Promise<ToolOutcome> = invoke({ tool: 'get-cms-tags' }, { client });
import { ChatSession, type TurnResult } from 'cms-admin-toolkit/agent';
import { createMcpServer } from 'cms-admin-toolkit/mcp';
const server = createMcpServer({ client });
export type T = ToolDefinition;
export type R = TurnResult;
export { names, outcome, server, ChatSession };`,
  );
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['check.ts'],
    }),
  );
  run(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);

  // The bin works from the installed package (prompts and the plugin are shipped).
  const listed = JSON.parse(run(path.join(project, 'node_modules/.bin/cms-admin'), ['tools', '--json'], project));
  expect(listed).toHaveLength(registry.length);
  run('test', ['-f', 'node_modules/cms-admin-toolkit/prompts/system.txt'], project);
  run('test', ['-f', 'node_modules/cms-admin-toolkit/plugin/cms-admin-companion/cms-admin-companion.php'], project);
});
