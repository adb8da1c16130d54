import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliShell } from '../helpers/cli-bin.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { testSite, unique, wp } from '../helpers/site.js';

// Issue #60, finding 5: an undo's question says what the undo does, in the forward tools' words,
// and a bulk undo's question is bounded (the count and the first names) and quick to appear —
// counted in requests made before it. Run as a person would: `cms-admin invoke`, then
// `cms-admin undo --dry-run` and `undo` in a terminal, on a site behind a proxy that counts requests.
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
const made: { posts: number[]; categories: number[] } = { posts: [], categories: [] };

beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
  const folder = mkdtempSync(path.join(tmpdir(), 'undo-questions-'));
  env = { CMS_URL: proxy.url, CMS_JOURNAL: path.join(folder, 'changes.db'), NO_COLOR: '1' };
});

afterAll(async () => {
  for (const id of made.posts) await wp().delete(`/wp/v2/posts/${id}`, { force: true }).catch(() => {});
  for (const id of made.categories) await wp().delete(`/wp/v2/categories/${id}`, { force: true }).catch(() => {});
  await proxy.stop();
});

const invoke = (...args: string[]) => runCli(['invoke', ...args], { env });

describe('undo questions describe the undo (#60.5)', () => {
  it('after migrate-terms, undo --dry-run says the category comes back on its posts and the new tag goes; the undo does that', async () => {
    const name = unique('Migrated');
    const category = await wp().post<{ id: number; slug: string }>('/wp/v2/categories', { name });
    made.categories.push(category.id);
    for (let i = 0; i < 3; i++) {
      const post = await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Migrated post'), status: 'publish', categories: [1, category.id] });
      made.posts.push(post.id);
    }
    const migrated = await invoke('migrate-terms', 'from_taxonomy=category', 'to_taxonomy=post_tag', `term_ids=[${category.id}]`);
    expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0);
    const [tag] = await wp().get<Array<{ id: number }>>('/wp/v2/tags', { slug: category.slug });

    const dry = await runCli(['undo', '--dry-run'], { env });
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`create the category "${name}"`);
    expect(dry.stdout).toContain(`category '${name}' back on 3 posts`);
    expect(dry.stdout).toContain(`tag '${name}' taken off 3 posts`);
    expect(dry.stdout).toContain(`delete the tag '${name}' (id ${tag!.id})`);
    expect(dry.stdout).not.toContain('left as they are');

    // What it said is what it does: the tag is gone, the category is back on the posts.
    const done = await runCli(['undo', '--yes'], { env });
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(await wp().get('/wp/v2/tags', { slug: category.slug })).toEqual([]);
    const [back] = await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', { slug: category.slug });
    expect(back?.name).toBe(name);
    made.categories.push(back!.id);
    for (const id of made.posts) expect((await wp().get<{ categories: number[] }>(`/wp/v2/posts/${id}`)).categories).toContain(back!.id);
  });

  it("a bulk import's undo asks the count and the first names in order, once 'cannot be undone', bounded, in few requests; in a terminal too", async () => {
    const rows = 50;
    const tag = unique('imp').replace(/\W+/g, '').toLowerCase();
    const logins = Array.from({ length: rows }, (_, i) => `${tag}${String.fromCharCode(122 - (i % 26))}${i}`);
    const csv = path.join(mkdtempSync(path.join(tmpdir(), 'undo-import-')), 'people.csv');
    writeFileSync(csv, `user_login,user_email,display_name\n${logins.map((l) => `${l},${l}@example.com,${l}`).join('\n')}\n`);
    const imported = await invoke('--file', csv, 'import-users');
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).result.counts.created).toBe(rows);

    const since = proxy.events.length;
    const dry = await runCli(['undo', '--dry-run'], { env });
    const requests = proxy.events.length - since;
    const question = dry.stdout.trim();
    expect(dry.code, question + dry.stderr).toBe(0);
    expect(question.length).toBeLessThanOrEqual(1500);
    expect(question).toContain(`delete ${rows} accounts`);
    expect(question.match(/cannot be undone/g)).toHaveLength(1);
    // The first names in alphabetical order (the import's batches interleave its ids), the rest counted.
    const sorted = [...logins].sort();
    const shown = question.match(new RegExp(`\\b${tag}[a-z]\\d+\\b`, 'g')) ?? [];
    expect(shown.length).toBeGreaterThanOrEqual(3);
    expect(shown).toEqual(sorted.slice(0, shown.length));
    expect(question).toContain(`and ${rows - shown.length} more`);
    // Seven or eight requests an account before (403 for these 50); now the engine's one check
    // an account and a few for the question.
    console.log(`undo --dry-run of an import of ${rows}: ${requests} requests, ${question.length} characters`);
    expect(requests).toBeLessThanOrEqual(rows + 15);

    const term = new TmuxTerminal('cms-undo-question');
    try {
      const exports = Object.entries({ ...env, CMS_USERNAME: testSite().username, CMS_APP_PASSWORD: testSite().appPassword })
        .map(([k, v]) => `${k}='${v}'`)
        .join(' ');
      term.start(`cd ${REPO_ROOT} && env ${exports} ${cliShell()} undo; sleep 600`);
      const asked = await term.waitFor('Run it? [y/N]');
      expect(asked).toContain(`delete ${rows} accounts`);
      expect(asked).toContain([...logins].sort()[0]);
      term.type('y', 'Enter');
      await term.waitFor(/deleted user \d+/);
    } finally {
      term.stop();
    }
    const left = await wp().get<unknown[]>('/wp/v2/users', { search: `${tag}*`, context: 'edit', per_page: 100 });
    expect(left).toEqual([]);
  });
});
