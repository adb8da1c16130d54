import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { cliShell } from '../helpers/cli-bin.js';

// The tool shell (`cms-admin chat` without a model) with an allowlist of two and of three tools,
// in a real terminal: each runs, any other tool is refused, and the shell goes on after each.
const allowlists = [
  ['get-cms-tags', 'list-taxonomies'],
  ['get-cms-tags', 'list-taxonomies', 'list-users'],
];
/** What each allowed tool's answer shows in the terminal. */
const answers: Record<string, [string, string]> = {
  'get-cms-tags': ['get-cms-tags limit=1', 'more: get-cms-tags limit=1 cursor='],
  'list-taxonomies': ['list-taxonomies', 'post_tag'],
  'list-users': ['list-users limit=1', 'username'],
};

describe.each(allowlists)('chat --allow with %s tools', (...allow) => {
  const term = new TmuxTerminal(`cms-tool-shell-allow-${allow.length}`);

  beforeAll(async () => {
    const site = testSite();
    const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1', XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-shell-')) };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    const unset = '-u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL';
    term.start(`cd ${REPO_ROOT} && env ${unset} ${exports} ${cliShell()} chat --allow ${allow.join(',')}`);
    await term.waitFor('tool>');
  });

  afterAll(() => term.stop());

  it('each allowed tool runs, another is tool_not_allowed, nothing written', async () => {
    for (const name of allow) {
      const [line, shown] = answers[name] as [string, string];
      term.type(line, 'Enter');
      await term.waitFor(shown);
    }
    const name = unique('Shell not allowed');
    term.type(`create-tag name="${name}"`, 'Enter');
    await term.waitFor('(tool_not_allowed)');
    expect(await wp().get<unknown[]>('/wp/v2/tags', { search: name })).toEqual([]);
  });
});
