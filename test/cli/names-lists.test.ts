import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTool } from '../../src/call/index.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliShell } from '../helpers/cli-bin.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { makeAppPassword, makeUser, newPassword, readUser, wpPhp } from '../wordpress/users/helpers.js';

/**
 * As a new user runs them (`cms-admin invoke`, the tool shell in a real terminal), WordPress read
 * back: #58.4 a login that is another account's email is never a silent choice, and digits are
 * ids; #60.3 lists on the command line; #60.4 names everywhere an id of a user or a term goes;
 * #58.8 / #60.7 the tool_not_allowed of a toolset not enabled says how to enable it.
 */
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const rolesOf = async (id: number) => (await readUser(id)).roles as string[];
const json = (stdout: string) => JSON.parse(stdout) as { ok: boolean; result?: any; error?: { code: string; message: string; hint?: string; details?: any } };
type Term = { id: number; slug: string; name: string };

describe('#58.4: a login that is another account’s email', () => {
  it('set-user-role id=<that email> is name_ambiguous listing both accounts; neither changes', async () => {
    // Account 28 of the issue: its login is an email address; its own email is another one.
    const login = `${slugOf(unique('carol'))}@example.test`;
    const carol = await wp().post<{ id: number }>('/wp/v2/users', { username: login, email: `${slugOf(unique('carol-own'))}@example.test`, password: newPassword(), roles: ['author'] });
    // Account 29: a subscriber sets that address as its own email, over /wp/v2/users/me.
    const other = await makeUser({ prefix: 'subscriber29' });
    const appPassword = await makeAppPassword(other.id);
    const me = await fetch(`${testSite().url}/wp-json/wp/v2/users/me`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${other.username}:${appPassword}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: login }),
    });
    expect(me.status).toBe(200);
    expect((await readUser(other.id)).email).toBe(login);

    const run = await runCli(['invoke', 'set-user-role', `id=${login}`, 'role=editor']);
    expect(run.code, run.stdout).toBe(1);
    const { error } = json(run.stdout);
    expect(error?.code).toBe('name_ambiguous');
    expect(error?.details?.candidates?.sort()).toEqual([carol.id, other.id].sort());
    expect(error?.message).toContain(`id ${carol.id}`);
    expect(error?.message).toContain(`id ${other.id}`);
    expect(await rolesOf(carol.id)).toEqual(['author']);
    expect(await rolesOf(other.id)).toEqual(['subscriber']);
    // By id, each is the one meant.
    expect((await runCli(['invoke', 'set-user-role', `id=${carol.id}`, 'role=editor'])).code).toBe(0);
    expect(await rolesOf(carol.id)).toEqual(['editor']);
    expect(await rolesOf(other.id)).toEqual(['subscriber']);
  });

  it('digits are an id, as the model and the person are told: a tag whose slug is another tag’s id is not chosen', async () => {
    const first = await wp().post<Term>('/wp/v2/tags', { name: unique('Digits first') });
    const second = await wp().post<Term>('/wp/v2/tags', { name: unique('Digits second'), slug: String(first.id) });
    expect(second.slug).toBe(String(first.id));
    const run = await runCli(['invoke', 'update-tag', `id=${first.id}`, 'description=By id']);
    expect(run.code, run.stdout).toBe(0);
    expect((await wp().get<{ description: string }>(`/wp/v2/tags/${first.id}`)).description).toBe('By id');
    expect((await wp().get<{ description: string }>(`/wp/v2/tags/${second.id}`)).description).toBe('');
    // Said where the model reads it, and in invoke's help.
    expect(findTool('list-users')?.description).toContain('digits: an id');
    expect(findTool('get-cms-categories')?.description).toContain('digits: an id');
    expect((await runCli(['invoke', '--help'])).stdout).toContain('a number is always an id');
  });
});

describe('#60.3 and #60.4 with cms-admin invoke', () => {
  it('post_ids=181,182 and term_ids=javascript; source_ids=[python,rust] target_id=typescript; read back', async () => {
    const javascript = await wp().post<Term>('/wp/v2/tags', { name: unique('javascript') });
    const posts = [await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('List post'), status: 'draft' }), await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('List post'), status: 'draft' })];
    const assign = await runCli(['invoke', 'assign-terms-to-posts', 'taxonomy=post_tag', `post_ids=${posts.map((p) => p.id).join(',')}`, `term_ids=${javascript.slug}`]);
    expect(assign.code, assign.stdout).toBe(0);
    for (const post of posts) expect((await wp().get<{ tags: number[] }>(`/wp/v2/posts/${post.id}`, { context: 'edit' })).tags).toEqual([javascript.id]);

    const [python, rust, typescript] = [await wp().post<Term>('/wp/v2/tags', { name: unique('python') }), await wp().post<Term>('/wp/v2/tags', { name: unique('rust') }), await wp().post<Term>('/wp/v2/tags', { name: unique('typescript') })];
    const tagged = await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Merge post'), status: 'draft', tags: [python.id, rust.id] });
    const merge = await runCli(['invoke', 'merge-terms', 'taxonomy=post_tag', `source_ids=[${python.slug},${rust.slug}]`, `target_id=${typescript.slug}`, 'delete_sources=true']);
    expect(merge.code, merge.stdout).toBe(0);
    expect((await wp().get<{ tags: number[] }>(`/wp/v2/posts/${tagged.id}`, { context: 'edit' })).tags).toEqual([typescript.id]);
    expect(await wp().get<Term[]>('/wp/v2/tags', { include: [python.id, rust.id], hide_empty: false })).toEqual([]);
  });

  it('migrate-terms term_ids=["world"] and set-users-role user_ids=["aturing","dknuth"] take names; read back', async () => {
    const world = await wp().post<Term>('/wp/v2/categories', { name: unique('world') });
    const migrate = await runCli(['invoke', 'migrate-terms', 'from_taxonomy=category', 'to_taxonomy=post_tag', `term_ids=["${world.slug}"]`]);
    expect(migrate.code, migrate.stdout).toBe(0);
    expect((await wp().get<Term[]>('/wp/v2/tags', { slug: world.slug, hide_empty: false })).map((t) => t.name)).toEqual([world.name]);
    expect(await wp().get<Term[]>('/wp/v2/categories', { include: [world.id], hide_empty: false })).toEqual([]);

    const [aturing, dknuth] = [await makeUser({ prefix: 'aturing' }), await makeUser({ prefix: 'dknuth' })];
    const bulk = await runCli(['invoke', 'set-users-role', `user_ids=["${aturing.username}","${dknuth.email}"]`, 'to_role=author']);
    expect(bulk.code, bulk.stdout).toBe(0);
    expect([await rolesOf(aturing.id), await rolesOf(dknuth.id)]).toEqual([['author'], ['author']]);
    // The same as words: a,b
    const words = await runCli(['invoke', 'set-users-role', `user_ids=${aturing.username},${dknuth.username}`, 'to_role=contributor']);
    expect(words.code, words.stdout).toBe(0);
    expect([await rolesOf(aturing.id), await rolesOf(dknuth.id)]).toEqual([['contributor'], ['contributor']]);
  });

  it('the help shows the list syntax', async () => {
    const help = (await runCli(['invoke', '--help'])).stdout;
    expect(help).toContain('a list takes a,b,c or one value');
    expect(help).toContain('source_ids=[python,rust]');
  });
});

describe('the tool shell in a terminal, --toolsets taxonomy', () => {
  const term = new TmuxTerminal('cms-shell-lists');
  beforeAll(async () => {
    const site = testSite();
    const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1', XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-shell-lists-')) };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    term.start(`cd ${REPO_ROOT} && env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL ${exports} ${cliShell()} chat --toolsets taxonomy`);
    await term.waitFor('tool>');
  });
  afterAll(() => term.stop());

  it('create-role is tool_not_allowed with the hint how to enable its toolset; enable-toolset does', async () => {
    const slug = slugOf(unique('shellrole')).replace(/-/g, '_');
    term.type(`create-role slug=${slug} name=Shell capabilities=read`, 'Enter');
    const refused = await term.waitFor('(tool_not_allowed)');
    expect(refused).toContain('in the toolset roles, not enabled');
    expect(refused).toContain('Call enable-toolset with {"toolset": "roles"} first.');
    expect(refused).not.toContain('--toolsets taxonomy');
    term.type('enable-toolset toolset=roles', 'Enter');
    await term.waitFor('enabled=roles');
    term.type(`create-role slug=${slug} name=Shell capabilities=read`, 'Enter');
    await term.waitFor(/✓ create-role:/);
    expect(JSON.parse(await wpPhp(`echo json_encode(get_role('${slug}')->capabilities);`))).toEqual({ read: true });
    await wpPhp(`remove_role('${slug}');`);
  });

  it('help shows the list syntax; post_ids=A,B term_ids=slug run in the shell', async () => {
    term.type('help assign-terms-to-posts', 'Enter');
    await term.waitFor('A list (type …[]) takes a,b,c or one value');
    const tag = await wp().post<Term>('/wp/v2/tags', { name: unique('shell list') });
    const posts = [await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Shell list'), status: 'draft' }), await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Shell list'), status: 'draft' })];
    term.type(`assign-terms-to-posts taxonomy=post_tag post_ids=${posts.map((p) => p.id).join(',')} term_ids=${tag.slug}`, 'Enter');
    await term.waitFor('updated 2 post(s)');
    for (const post of posts) expect((await wp().get<{ tags: number[] }>(`/wp/v2/posts/${post.id}`, { context: 'edit' })).tags).toEqual([tag.id]);
  });
});
