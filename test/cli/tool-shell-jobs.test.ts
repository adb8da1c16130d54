import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postLoginForm } from '../../src/evals/account-state.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { ShellDriver } from '../helpers/shell-steps.js';
import { callOk, testSite, unique, wp } from '../helpers/site.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { makeUser, wpPhp } from '../wordpress/users/helpers.js';
import { cliShell } from '../helpers/cli-bin.js';

// #36's jobs as a site administrator does them in the tool shell (`cms-admin chat` without a
// model) in a real terminal: what the screen shows (tables, questions) and what the site holds.
const term = new TmuxTerminal('cms-shell-jobs');
const shell = new ShellDriver(term);
/** Secrets made here (alice's password, her application password): never on screen. */
const secrets: string[] = [];
const state = mkdtempSync(path.join(tmpdir(), 'cms-shell-jobs-'));
type Post = { id: number; tags: number[]; author: number };
const tag = async (name: string) => (await wp().post<{ id: number }>('/wp/v2/tags', { name })).id;
const post = (id: number) => wp().get<Post>(`/wp/v2/posts/${id}`, { context: 'edit' });
const tagPosts = (taxonomy: string, term_ids: number[], post_ids: number[]) =>
  callOk('assign-terms-to-posts', { taxonomy, term_ids, post_ids });

const word = unique('zebrafinch').toLowerCase().replace(/[^a-z0-9]/g, '');
const f = {} as Record<'renamed' | 'wordTag' | 'off' | 'a' | 'b' | 'c', number> & {
  wordPosts: number[];
  offPosts: number[];
  abPosts: number[];
  alice: { id: number; username: string };
  bob: { id: number };
  carol: { id: number };
  bobPosts: number[];
  uuid: string;
};

beforeAll(async () => {
  f.renamed = await tag(unique('Shell old name'));
  f.wordTag = await tag(unique('Shell word'));
  f.off = await tag(unique('Shell off'));
  [f.a, f.b, f.c] = [await tag(unique('Shell A')), await tag(unique('Shell B')), await tag(unique('Shell C'))];
  f.wordPosts = [];
  for (let i = 0; i < 3; i++)
    f.wordPosts.push((await wp().post<{ id: number }>('/wp/v2/posts', { title: `Notes ${i}`, content: `About ${word}.`, status: 'publish' })).id);
  const published = await wp().get<Array<{ id: number }>>('/wp/v2/posts', { per_page: 40, orderby: 'id', order: 'asc' });
  f.offPosts = published.slice(0, 22).map((p) => p.id);
  f.abPosts = published.slice(22, 28).map((p) => p.id);
  await tagPosts('post_tag', [f.off], f.offPosts);
  await tagPosts('post_tag', [f.a], f.abPosts.slice(0, 3));
  await tagPosts('post_tag', [f.b], f.abPosts.slice(3));
  const alice = await makeUser({ prefix: 'alice', roles: ['editor'] });
  f.alice = alice;
  const made = await wp().post<{ uuid: string; password: string }>(`/wp/v2/users/${alice.id}/application-passwords`, { name: 'laptop' });
  secrets.push(made.password, alice.password);
  f.uuid = made.uuid;
  await postLoginForm(testSite().url, alice.username, alice.password, 'ShellTest/1.0');
  f.bob = await makeUser({ prefix: 'bob', roles: ['author'] });
  f.carol = await makeUser({ prefix: 'carol', roles: ['author'] });
  f.bobPosts = [];
  for (let i = 0; i < 2; i++)
    f.bobPosts.push((await wp().post<{ id: number }>('/wp/v2/posts', { title: `Bob ${i}`, status: 'publish', author: f.bob.id })).id);

  const site = testSite();
  const env = {
    CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1',
    CMS_JOURNAL: path.join(state, 'changes.jsonl'), XDG_STATE_HOME: state,
  };
  const exports = Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ');
  const unset = '-u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL';
  term.start(`cd ${REPO_ROOT} && env ${unset} ${exports} ${cliShell()} chat`);
  await term.waitFor('tool>');
}, 180_000);

afterAll(() => {
  const shown = shell.scrollback();
  term.stop();
  for (const value of secrets) expect(shown).not.toContain(value);
});

it('does the jobs of #36 in the tool shell: tables and questions on screen, the site read back', async () => {
  // Rename a tag and its slug: one line of what changed.
  const slug = `shell-renamed-${word}`;
  const rename = await shell.step(`update-tag id=${f.renamed} name="Shell Renamed ${word}" slug=${slug}`);
  expect(rename.answer).toContain(`✓ update-tag: id=${f.renamed} name=Shell Renamed ${word} slug=${slug}`);
  expect(await wp().get(`/wp/v2/tags/${f.renamed}`)).toMatchObject({ name: `Shell Renamed ${word}`, slug });

  // Posts without a category: a count line even when WordPress files them all under the default.
  expect((await shell.step('find-posts taxonomy=category no_terms=true')).answer).toMatch(/^\d+ of \d+/m);

  // Who has application passwords (alice's, as a table), revoke it after the question.
  const keys = await shell.step(`list-app-passwords user_id=${f.alice.id}`);
  expect(keys.answer).toMatch(/uuid\s+name\s+created/);
  expect(keys.answer).toMatch(new RegExp(`${f.uuid}\\s+laptop`));
  const revoke = await shell.step(`revoke-app-passwords user_id=${f.alice.id} uuid=${f.uuid}`);
  expect(revoke.question).toContain('Approval needed:');
  expect(await wp().get(`/wp/v2/users/${f.alice.id}/application-passwords`)).toEqual([]);

  // Log alice out everywhere.
  const logout = await shell.step(`log-out-user user_id=${f.alice.id}`);
  expect(logout.question).toContain('end 1 login session(s)');
  expect(logout.answer).toContain('sessions_ended=1');
  expect((await wpPhp(`echo count(WP_Session_Tokens::get_instance(${f.alice.id})->get_all());`)).trim()).toBe('0');

  // Delete bob, giving his posts to carol.
  const del = await shell.step(`delete-user id=${f.bob.id} reassign_to=${f.carol.id}`);
  expect(del.question).toContain('Approval needed:');
  expect(del.answer).toContain(`✓ delete-user: id=${f.bob.id}`);
  for (const id of f.bobPosts) expect((await post(id)).author).toBe(f.carol.id);
  await expect(wp().get(`/wp/v2/users/${f.bob.id}`)).rejects.toMatchObject({ status: 404 });

  // Tag every post that mentions the word: a table, then @ids.
  const found = await shell.step(`find-posts search=${word}`);
  expect(found.answer).toMatch(/^id\s+title\s+type\s+status/m);
  expect(found.answer).toContain('3 of 3');
  const tagged = await shell.step(`assign-terms-to-posts taxonomy=post_tag term_ids=[${f.wordTag}] post_ids=@ids`);
  expect(tagged.answer).toContain('✓ updated 3 post(s)');
  for (const id of f.wordPosts) expect((await post(id)).tags).toContain(f.wordTag);

  // Take a tag off 20 of its 22 posts: the page says there is more.
  const page = await shell.step(`find-posts taxonomy=post_tag term_ids=[${f.off}] limit=20`);
  expect(page.answer).toContain('20 of 22');
  expect(page.answer).toMatch(new RegExp(`^more: find-posts taxonomy=post_tag term_ids=\\[${f.off}\\] limit=20 cursor=\\S+$`, 'm'));
  const off = await shell.step(`remove-terms-from-posts taxonomy=post_tag term_ids=[${f.off}] post_ids=@ids`);
  expect(off.answer).toContain('✓ updated 20 post(s)');
  expect((await wp().get<{ count: number }>(`/wp/v2/tags/${f.off}`)).count).toBe(2);

  // Merge three tags: A and B into C.
  const merge = await shell.step(`merge-terms taxonomy=post_tag source_ids=[${f.a},${f.b}] target_id=${f.c}`);
  expect(merge.question).toMatch(/Approval needed: merge the tags/);
  for (const id of f.abPosts) expect((await post(id)).tags).toContain(f.c);

  // Undo the last three changes: one question naming each, then the site as it was.
  const undo = await shell.step('/undo 3');
  expect(undo.question).toContain('3 changes:');
  expect(undo.question).toMatch(/• undo \S+ \(merge-terms\)/);
  expect(undo.question).toMatch(/• undo \S+ \(remove-terms-from-posts\)/);
  expect(undo.question).toMatch(/• undo \S+ \(assign-terms-to-posts\)/);
  expect(undo.answer.split('\n').filter((l) => l.startsWith('undo '))).toHaveLength(3);
  for (const id of f.wordPosts) expect((await post(id)).tags).not.toContain(f.wordTag);
  expect((await wp().get<{ count: number }>(`/wp/v2/tags/${f.off}`)).count).toBe(22);
  for (const id of f.abPosts.slice(0, 3)) expect((await post(id)).tags).toContain(f.a);
  for (const id of f.abPosts.slice(3)) expect((await post(id)).tags).toContain(f.b);

  // History kept for the next session, private to the user.
  const history = path.join(state, 'cms-admin', 'shell-history');
  expect(statSync(history).mode & 0o777).toBe(0o600);
  expect(readFileSync(history, 'utf8')).toContain(`find-posts search=${word}`);
}, 600_000);
