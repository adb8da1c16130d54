import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';

// Inside the repo so that `--import tsx` resolves from the working directory.
const dir = mkdtempSync(path.join(REPO_ROOT, 'node_modules', '.dotenv-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const unset = { CMS_URL: undefined, CMS_USERNAME: undefined, CMS_APP_PASSWORD: undefined };

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

  it('CMS_HISTORY_TOKENS=abc stops the chat with the variable named', async () => {
    const run = await runCli(['chat', '--once', 'hi'], {
      env: { CMS_HISTORY_TOKENS: 'abc', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('CMS_HISTORY_TOKENS');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

it('`cms-admin tools | head -1` ends quietly: exit 0, no stack trace', () => {
  const main = path.join(REPO_ROOT, 'src/cli/main.ts');
  const run = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" --import tsx "${main}" tools | head -1`], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  recordOutput(run.stdout + run.stderr);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
  expect(run.status).toBe(0);
});
