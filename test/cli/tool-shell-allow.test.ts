import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { testSite, unique, wp } from '../helpers/site.js';

// The tool shell (`cms-admin chat` without a model) with an allowlist of two tools, in a real
// terminal: both run, any other tool is refused, and the shell goes on after each.
const term = new TmuxTerminal('cms-tool-shell-allow');

beforeAll(async () => {
  const site = testSite();
  const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1' };
  const exports = Object.entries(env)
    .map(([k, v]) => `${k}='${v}'`)
    .join(' ');
  const unset = '-u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL';
  const main = path.join('src/cli/main.ts');
  term.start(`cd ${REPO_ROOT} && env ${unset} ${exports} ${process.execPath} --import tsx ${main} chat --allow get-cms-tags,list-taxonomies`);
  await term.waitFor('tool>');
});

afterAll(() => term.stop());

it('--allow a,b: both tools run, another is tool_not_allowed, nothing written', async () => {
  term.type('get-cms-tags limit=1', 'Enter');
  await term.waitFor('"next_cursor"');
  term.type('list-taxonomies', 'Enter');
  await term.waitFor('"post_tag"');
  const name = unique('Shell not allowed');
  term.type(`create-tag name="${name}"`, 'Enter');
  await term.waitFor('tool_not_allowed');
  expect(await wp().get<unknown[]>('/wp/v2/tags', { search: name })).toEqual([]);
});
