import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliShell } from '../helpers/cli-bin.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { makeUser, readUser } from '../wordpress/users/helpers.js';

/**
 * #58.5: names skipped the approval question in the tool shell (what `npm start` opens without a
 * model). The shell decided from its own parse, which failed on a name, then ran the call through
 * a path that looked the names up: with no terminal an author became administrator; in a
 * terminal `merge-terms source_ids=["python","rust"] target_id=typescript` ran without a question.
 * Now the shell resolves the call once (names to ids) and asks about exactly that call.
 */
const noModel = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
type Tag = { id: number; slug: string };
const tag = (name: string) => wp().post<Tag>('/wp/v2/tags', { name, slug: slugOf(name) });
const tagsOf = async (post: number) => (await wp().get<{ tags: number[] }>(`/wp/v2/posts/${post}`, { context: 'edit' })).tags;

describe('the tool shell without a terminal', () => {
  it('set-user-role id=LOGIN role=administrator is refused as needing approval, as the numeric form is; the author stays an author', async () => {
    const author = await makeUser({ prefix: 'dknuth', roles: ['author'] });
    const run = await runCli(['chat'], { env: noModel, input: `set-user-role id=${author.username} role=administrator\nset-user-role id=${author.id} role=administrator\n/exit\n` });
    expect(run.code).toBe(0);
    // Both forms: the same refusal (no one can be asked without a terminal).
    expect(run.stdout.match(/set-user-role needs approval \(give .*?administrator.*?\), and no one can approve it here/g)?.length ?? 0, run.stdout).toBe(2);
    expect((await readUser(author.id)).roles).toEqual(['author']);
  });
});

describe('the tool shell in a terminal', () => {
  const term = new TmuxTerminal('cms-shell-names');
  beforeAll(async () => {
    const site = testSite();
    const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1', XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-shell-names-')) };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    term.start(`cd ${REPO_ROOT} && env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL ${exports} ${cliShell()} chat`);
    await term.waitFor('tool>');
  });
  afterAll(() => term.stop());

  it('merge-terms with slugs asks first, naming the terms; declined, nothing is merged', async () => {
    const [python, rust, typescript] = [await tag(unique('python')), await tag(unique('rust')), await tag(unique('typescript'))];
    const post = await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Shell merge'), status: 'draft', tags: [python.id, rust.id] });
    term.type(`merge-terms taxonomy=post_tag source_ids=["${python.slug}","${rust.slug}"] target_id=${typescript.slug}`, 'Enter');
    const asked = await term.waitFor('Run it? [y/N]');
    expect(asked).toContain('Approval needed:');
    term.type('n', 'Enter');
    await term.waitFor('Not run: The call was not approved');
    expect(await tagsOf(post.id)).toEqual([python.id, rust.id]);
    const left = await wp().get<Tag[]>('/wp/v2/tags', { include: [python.id, rust.id], hide_empty: false });
    expect(left.map((t) => t.id).sort()).toEqual([python.id, rust.id].sort());
  });
});
