import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { cliShell } from '../helpers/cli-bin.js';

// The tool shell `cms-admin chat` opens without a model, in a real terminal (tmux), on a site
// behind a proxy that can hold requests.
const term = new TmuxTerminal('cms-tool-shell');
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
  const site = testSite();
  const env = { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1', XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-shell-')) };
  const exports = Object.entries(env)
    .map(([k, v]) => `${k}='${v}'`)
    .join(' ');
  // No model configured: unset whatever the machine has, so chat opens the tool shell.
  const unset = '-u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL';
  term.start(`cd ${REPO_ROOT} && env ${unset} ${exports} ${cliShell()} chat`);
  await term.waitFor('tool>');
});

afterAll(async () => {
  term.stop();
  await proxy.stop();
});

it('Ctrl-C cancels a call that hangs, nothing is written, and the shell goes on', async () => {
  proxy.clear().inject({ method: 'POST', path: /categories/, fault: { kind: 'delay', ms: Number.POSITIVE_INFINITY } });
  const name = unique('Shell never made');
  const since = proxy.events.length;
  term.type(`create-category name="${name}"`, 'Enter');
  await term.until(() => proxy.count('POST', /categories/, since) === 1, 'the held POST');
  term.type('C-c');
  const shown = await term.waitFor('(cancelled)');
  expect(shown).toContain('(cancelling this call…)');
  expect(await wp().get<unknown[]>('/wp/v2/categories', { search: name })).toEqual([]);

  // The shell still works: the next call runs and its write is on the site.
  proxy.clear();
  const next = unique('Shell made');
  term.type(`create-category name="${next}"`, 'Enter');
  await term.waitFor(`name=${next}`);
  const made = await wp().get<Array<{ name: string }>>('/wp/v2/categories', { search: next });
  expect(made.map((c) => c.name)).toEqual([next]);
});

it('Ctrl-C at the prompt warns and the shell goes on; two in a row quit', async () => {
  term.type('C-c');
  await term.waitFor('(Ctrl-C again, /exit or Ctrl-D to quit)');
  term.type('get-cms-tags limit=1', 'Enter');
  await term.waitFor('more: get-cms-tags limit=1 cursor=');
  // Both in one send: the second comes within the two seconds whatever the machine's load.
  term.type('C-c', 'C-c');
  // tmux ends the session when the command exits.
  await term.until(() => {
    try {
      term.screen();
      return false;
    } catch {
      return true;
    }
  }, 'the shell to exit');
});
