import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';
import { cliShell } from '../helpers/cli-bin.js';

// Inside the repo so that `--import tsx` resolves from the working directory.
const dir = mkdtempSync(path.join(REPO_ROOT, 'node_modules', '.dotenv-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// No site in the environment, and no sandbox to fall back on: only .env can name one.
const unset = { CMS_URL: undefined, CMS_USERNAME: undefined, CMS_APP_PASSWORD: undefined, CMS_SANDBOX_HOME: dir };

describe('.env in the working directory', () => {
  it('is read when the environment does not set the variables', async () => {
    const site = testSite();
    writeFileSync(
      path.join(dir, '.env'),
      `CMS_URL=${site.url}\nCMS_USERNAME=${site.username}\nCMS_APP_PASSWORD="${site.appPassword}"\n`,
      { mode: 0o600 },
    );
    const run = await runCli(['invoke', '{"tool":"get-cms-tags","params":{"limit":1}}'], { cwd: dir, env: unset });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).result.total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
  });

  it('never overrides a variable the environment sets', async () => {
    const site = testSite();
    writeFileSync(path.join(dir, '.env'), `CMS_URL=${site.url}\nCMS_USERNAME=${site.username}\nCMS_APP_PASSWORD=wrong-from-dotenv\n`);
    const run = await runCli(['invoke', '{"tool":"get-cms-tags","params":{"limit":1}}'], {
      cwd: dir,
      env: { ...unset, CMS_APP_PASSWORD: site.appPassword },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });
});

describe('settings with a wrong value are clear errors (exit 2), like their flags', () => {
  it.each(['127.0.0.1:8990', 'notaurl'])('CMS_URL=%s (no scheme)', async (url) => {
    const run = await runCli(['invoke', '{"tool":"get-cms-tags"}'], { env: { CMS_URL: url } });
    expect(run.code).toBe(2);
    const error = JSON.parse(run.stdout).error;
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('https://example.com');
  });

  it.each([
    ['CMS_ANSWER_BUDGET', '500'],
    ['CMS_ANSWER_BUDGET', 'abc'],
    ['CMS_TIMEOUT_MS', 'abc'],
  ])('%s=%s', async (key, value) => {
    const run = await runCli(['invoke', '{"tool":"get-cms-tags"}'], { env: { [key]: value } });
    expect(run.code).toBe(2);
    const error = JSON.parse(run.stdout).error;
    expect(error).toMatchObject({ code: 'invalid_config' });
    expect(error.message).toContain(key);
  });

  // The chat's own settings stop it before the site is reached; port 9 answers nothing.
  it.each([
    ['CMS_HISTORY_TOKENS', 'abc'],
    ['CMS_HISTORY_TOKENS', '500'],
    ['CMS_AGENT_TIMEOUT_MS', 'abc'],
    ['OPENAI_BASE_URL', 'notaurl'],
  ])('chat: %s=%s stops it with the variable named, exit 2', async (key, value) => {
    const run = await runCli(['chat', '--once', 'hi'], { env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', [key]: value } });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${key}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('CMS_SANDBOX_PORT=abc without CMS_URL: invoke answers invalid_config naming it (the sandbox fallback)', async () => {
    const run = await runCli(['invoke', '{"tool":"get-cms-tags"}'], { env: { ...unset, CMS_SANDBOX_PORT: 'abc' } });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('CMS_SANDBOX_PORT') });
  });

  it.each([
    ['CMS_SANDBOX_WP', '5.0'],
    ['CMS_SANDBOX_BACKEND', 'docker'],
  ])('site up: %s=%s is refused naming it, exit 2, like its flag', async (key, value) => {
    const run = await runCli(['site', 'up', '--name', 'h-never-created'], { env: { [key]: value } });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(key);
  });

  it('mcp --http (sign-in: no session yet) refuses CMS_ANSWER_BUDGET=500 at start, not per session', async () => {
    const run = await runCli(['mcp', '--http', '--port', '9'], {
      env: { ...unset, CMS_URL: 'https://example.com', CMS_ANSWER_BUDGET: '500' },
      timeoutMs: 20_000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CMS_ANSWER_BUDGET');
  });
});

it('CMS_TIMEOUT_MS=1: a WordPress request that takes longer is ECONNABORTED (docs/error-handling.md), exit 1', async () => {
  // No WordPress answers /users/me within 1 ms: PHP alone takes longer to start the request.
  const run = await runCli(['invoke', '{"tool":"get-cms-tags"}'], { env: { CMS_TIMEOUT_MS: '1' } });
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'ECONNABORTED', message: expect.stringContaining('timed out') });
});

describe('flags with a wrong value: the same error and exit 2 as their variables', () => {
  it.each([
    [['invoke', '--answer-budget', '500', '{"tool":"get-cms-tags"}'], '--answer-budget'],
    [['invoke', '--allow', 'get-cms-tags,get-cms-tagz', '{"tool":"get-cms-tags"}'], 'did you mean get-cms-tags'],
  ])('%j: invalid_config naming it', async (args, named) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'invalid_config', message: expect.stringContaining(named) });
  });

  it.each([
    [['chat', '--once', 'hi', '--history-tokens', '500'], '--history-tokens'],
    [['chat', '--once', 'hi', '--allow', 'get-cms-tags,nope'], '"nope"'],
    [['mcp', '--allow', 'get-cms-tags,nope'], '"nope"'],
    [['site', 'up', '--name', 'h-never-created', '--port', 'abc'], '--port'],
    [['invoke', '--no-such-flag', '{}'], 'unknown option'],
    [['mcp', '--http', '--port', 'abc'], '--port'],
    [['mcp', '--http', '--auth', 'oauth'], '--auth'],
    [['mcp', '--approve', 'create-usr'], '--approve'],
    [['mcp', '--http', '--port', '0'], 'CMS_MCP_TOKEN'],
  ])('%j: exit 2 naming it', async (args, named) => {
    // CMS_MCP_TOKEN: a token too short to keep anyone out is a wrong setting too.
    const run = await runCli(args, { env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', CMS_MCP_TOKEN: 'short' }, timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(named);
  });
});

describe('output into a pipe closed early ends quietly: exit 0, no stack trace', () => {
  // A long audit log and change journal (more than a pipe holds), as months of writes leave them.
  const lines = (n: number, line: (i: number) => object) =>
    `${Array.from({ length: n }, (_, i) => JSON.stringify(line(i))).join('\n')}\n`;
  writeFileSync(
    path.join(dir, 'audit.jsonl'),
    lines(3000, (i) => ({ time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), user: 'admin', tool: 'create-tag', params: { name: `t${i}` }, ok: true, summary: `id=${i}` })),
    { mode: 0o600 },
  );
  writeFileSync(
    path.join(dir, 'changes.jsonl'),
    lines(3000, (i) => ({ change_id: `c${i}`, at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), user: 'admin', tool: 'create-tag', params: { name: `t${i}` }, summary: `created tag ${i} 't${i}'`, reversible: true })),
    { mode: 0o600 },
  );
  it.each([
    'tools',
    'tools --json',
    `audit --audit-log ${path.join(dir, 'audit.jsonl')} -n 3000`,
    `changes --journal ${path.join(dir, 'changes.jsonl')} -n 3000`,
  ])('`cms-admin %s | head -1`', (command) => {
    const run = spawnSync('bash', ['-c', `set -o pipefail; ${cliShell()} ${command} | head -1`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    recordOutput(run.stdout + run.stderr);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(run.status).toBe(0);
  });
});
