import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, wp } from '../helpers/site.js';
import { recordOutput, recordSecretsOf } from '../helpers/output-log.js';
import { newIdentity, newPassword } from '../wordpress/users/helpers.js';
import { selectTools, tools as registry } from '../../src/call/index.js';

let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

it('examples/taxonomy-agent.ts builds its own agent with TaxonomyToolkit only and answers from the site', async () => {
  const total = await wp().count('/wp/v2/categories', { hide_empty: false });
  server.script({ toolCalls: [{ name: 'get-cms-categories', args: {} }] }, (request) => {
    const tool = request.messages.find((m) => m.role === 'tool');
    return { content: `There are ${JSON.parse(String(tool?.content)).total} categories.` };
  });
  const site = testSite();
  // `cms-admin-source` resolves the package's own name to src/ (see package.json exports).
  const child = spawn(
    process.execPath,
    [
      '--conditions=cms-admin-source',
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'examples/taxonomy-agent.ts'),
      'How many categories?',
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        CMS_URL: site.url,
        CMS_USERNAME: site.username,
        CMS_APP_PASSWORD: site.appPassword,
        OPENAI_API_KEY: 'test',
        OPENAI_BASE_URL: server.url,
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout.trim()).toBe(`There are ${total} categories.`);
  // The model was offered the taxonomy tools only.
  const offered = server.requests[0]!.tools!.map((t) => t.function.name).sort();
  expect(offered).toEqual(selectTools(registry, { toolsets: ['taxonomy'] }).map((t) => t.name).sort());
  expect(offered).not.toContain('list-users');
});

it.each(['y', 'n'])(
  'examples/approve-in-the-loop.ts: an administrator waits for the operator, who answers %s; the site shows the answer',
  async (answer) => {
    const { username, email } = newIdentity('exadmin');
    const password = newPassword();
    recordSecretsOf({ password });
    server.script({ toolCalls: [{ name: 'create-user', args: { username, email, password, role: 'administrator' } }] }, (request) => {
      const tool = [...request.messages].reverse().find((m) => m.role === 'tool');
      return { content: JSON.parse(String(tool?.content)).error ? 'Not created.' : 'Created.' };
    });
    const site = testSite();
    const child = spawn(
      process.execPath,
      ['--conditions=cms-admin-source', '--import', 'tsx', path.join(REPO_ROOT, 'examples/approve-in-the-loop.ts'), 'Make an admin.'],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          CMS_URL: site.url,
          CMS_USERNAME: site.username,
          CMS_APP_PASSWORD: site.appPassword,
          OPENAI_API_KEY: 'test',
          OPENAI_BASE_URL: server.url,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      // Answer once the question is on screen: the operator reads it first.
      if (/\[y\/N\] $/.test(stderr)) child.stdin.end(`${answer}\n`);
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    recordOutput(stdout + stderr);
    expect(code).toBe(0);
    expect(stderr).toMatch(new RegExp(`^Approve: create the user ${username} <${email}> with the role administrator \\(manage_options`));
    expect(stdout.trim()).toBe(answer === 'y' ? 'Created.' : 'Not created.');
    const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
    expect(found.find((u) => u.username === username)?.roles).toEqual(answer === 'y' ? ['administrator'] : undefined);
  },
);
