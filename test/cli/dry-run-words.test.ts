import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { cliShell } from '../helpers/cli-bin.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { testSite, unique, wp } from '../helpers/site.js';

// Issue #60, finding 7: a dry run in a terminal says what really happens where it is shown. The
// import's dry run through `invoke` said "a person approves it when it runs", and `invoke` then
// ran it without asking; the tool shell does ask.
const terms: TmuxTerminal[] = [];
afterAll(() => {
  for (const t of terms) t.stop();
});

function terminal(name: string, command: string): TmuxTerminal {
  const site = testSite();
  const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1', XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-dry-words-')) };
  const exports = Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ');
  const term = new TmuxTerminal(name);
  terms.push(term);
  term.start(`cd ${REPO_ROOT} && env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL ${exports} ${command}; sleep 600`);
  return term;
}

it('invoke --dry-run of an import in a terminal says invoke runs it without asking; the tool shell says it asks', async () => {
  const login = unique('dryword').replace(/\W+/g, '').toLowerCase();
  const csv = path.join(mkdtempSync(path.join(tmpdir(), 'cms-dry-csv-')), 'people.csv');
  writeFileSync(csv, `user_login,user_email\n${login},${login}@example.com\n`);

  const invoke = terminal('cms-dry-invoke', `${cliShell()} invoke --dry-run --file ${csv} import-users`);
  const shown = await invoke.waitFor('dry run (nothing written)');
  expect(shown).toContain('`cms-admin invoke` runs it without asking');
  expect(shown).not.toContain('a person approves it when it runs');

  const shell = terminal('cms-dry-shell', `${cliShell()} chat`);
  await shell.waitFor('tool>');
  shell.type(`import-users csv=${JSON.stringify(readFileSync(csv, 'utf8'))} dry_run=true`, 'Enter');
  const asked = await shell.waitFor('dry run (nothing written)');
  expect(asked).toContain('you are asked before it runs');
  // A dry run wrote nothing.
  expect(await wp().get('/wp/v2/users', { search: login, context: 'edit' })).toEqual([]);
});
