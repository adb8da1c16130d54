import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../helpers/cli-bin.js';
import { runCli } from '../helpers/cli.js';
import { testSandbox } from '../helpers/sandboxes.js';
import { WpBrowser } from '../helpers/wp-browser.js';

/**
 * #52.5: one sandbox home per person (the XDG data folder) whatever the current folder, a sandbox
 * chosen by name (--sandbox, CMS_SANDBOX_NAME) on `site …`, `invoke` and `chat`, `site status`
 * naming the home, `site env --login` giving the browser sign-in. The worker's own instance is
 * linked into a new XDG data folder; every command runs from another, empty folder.
 */
describe('the sandbox by name, from any folder', () => {
  const sandbox = testSandbox();
  const data = mkdtempSync(path.join(tmpdir(), 'xdg-data-'));
  const home = path.join(data, 'cms-admin', 'sandbox');
  mkdirSync(path.dirname(home), { recursive: true });
  symlinkSync(sandbox.home, home);
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'an-app-'));
  // No site configured, no sandbox home given: the person's own data folder decides.
  const env = { CMS_SANDBOX_HOME: undefined, CMS_URL: undefined, CMS_USERNAME: undefined, CMS_APP_PASSWORD: undefined, CMS_SITE: undefined, XDG_DATA_HOME: data, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
  const cli = (args: string[], more: NodeJS.ProcessEnv = {}, input?: string) => runCli(args, { env: { ...env, ...more }, cwd: elsewhere, input });

  it('site status --sandbox NAME and CMS_SANDBOX_NAME find it and name the home; an unknown name says where it looked', async () => {
    for (const [args, more] of [[['site', 'status', '--sandbox', sandbox.name], {}], [['site', 'status'], { CMS_SANDBOX_NAME: sandbox.name }]] as const) {
      const status = await cli([...args], more);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`sandbox "${sandbox.name}": WordPress`);
      expect(status.stdout).toContain(`running at ${sandbox.url}`);
      expect(status.stdout).toContain(`home: ${home}`);
    }
    const missing = await cli(['site', 'env', '--sandbox', 'newc']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`sandbox "newc" is not installed yet in ${home}`);
  });

  it('invoke --sandbox NAME and chat --sandbox NAME (the tool shell without a model) reach it', async () => {
    const invoked = await cli(['invoke', 'get-cms-tags', 'limit=1', '--sandbox', sandbox.name]);
    expect(invoked.code, invoked.stderr).toBe(0);
    expect(JSON.parse(invoked.stdout).ok).toBe(true);
    const chat = await cli(['chat', '--sandbox', sandbox.name], {}, '/json\nget-cms-categories limit=1\n');
    expect(chat.stdout).toMatch(/"total": \d+/);
    const none = await cli(['invoke', 'get-cms-tags', 'limit=1', '--sandbox', 'nope']);
    expect(none.code).not.toBe(0);
  });

  it("site env --login prints the admin's login password, which signs in to wp-admin", async () => {
    // Not through runCli: this output holds the passwords on purpose, and is not logged.
    const run = spawnSync(process.execPath, [...cliArgs(), 'site', 'env', '--login', '--sandbox', sandbox.name], {
      cwd: elsewhere,
      env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)),
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`# wp-admin: ${sandbox.url.replace(/\/$/, '')}/wp-login.php`);
    const password = /^# password: (.+)$/m.exec(run.stdout)?.[1] as string;
    const login = /^# login: (.+)$/m.exec(run.stdout)?.[1] as string;
    expect(login).toBe(sandbox.username);
    await new WpBrowser(sandbox.url).logIn(login, password);
    // Without --login: only the dotenv lines, as before.
    const plain = spawnSync(process.execPath, [...cliArgs(), 'site', 'env', '--sandbox', sandbox.name], { cwd: elsewhere, env: { ...process.env, XDG_DATA_HOME: data, CMS_SANDBOX_HOME: '' }, encoding: 'utf8' });
    expect(plain.stdout).not.toContain(password);
    expect(plain.stdout).toMatch(/^CMS_URL=/m);
  });
});
