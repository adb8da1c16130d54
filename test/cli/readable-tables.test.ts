import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliShell } from '../helpers/cli-bin.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { testNetwork } from '../helpers/network.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { testSite, unique, wp } from '../helpers/site.js';

// Issue #60, finding 6: tables people can read. Cells are chosen by the value's shape
// (cli/render/values.ts), whatever the tool: find-duplicate-terms' terms and a network's sites
// were raw JSON, find-posts' authors ids, `help create-role`'s "about" column empty. Seen as a
// person sees them: the tool shell in a terminal, and `invoke --format table`.
const term = new TmuxTerminal('cms-readable-tables');
let proxy: FaultProxy;
const made: { posts: number[]; categories: number[] } = { posts: [], categories: [] };

beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
  const site = testSite();
  const env = { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, NO_COLOR: '1', XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-tables-')) };
  const exports = Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ');
  term.start(`cd ${REPO_ROOT} && env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL ${exports} ${cliShell()} chat`);
  await term.waitFor('tool>');
});

afterAll(async () => {
  term.stop();
  for (const id of made.posts) await wp().delete(`/wp/v2/posts/${id}`, { force: true }).catch(() => {});
  for (const id of made.categories) await wp().delete(`/wp/v2/categories/${id}`, { force: true }).catch(() => {});
  await proxy.stop();
});

/** The screen from the line typed on: what this command printed. */
async function run(line: string, until: string | RegExp): Promise<string> {
  term.run('clear-history', '-t', term.session);
  term.type('C-l');
  term.type(line, 'Enter');
  await term.waitFor(until);
  await term.waitFor(/tool> $/m);
  const screen = term.screen();
  return screen.slice(screen.lastIndexOf(line));
}

describe('tables people can read (#60.6)', () => {
  it('help create-role says what every parameter is', async () => {
    const shown = await run('help create-role', 'example: create-role');
    for (const param of ['slug', 'name', 'capabilities', 'clone_from', 'add_capabilities', 'remove_capabilities', 'dry_run']) {
      const row = shown.split('\n').find((l) => l.startsWith(`${param} `));
      // param, type, (required,) about: the last column is words, not the type or "yes".
      const about = row?.trim().split(/\s{2,}/).at(-1) ?? '';
      expect(about, row).toMatch(/^[A-Za-z]+:? .{4,}/);
    }
    expect(shown).toContain('A role to copy');
  });

  it('find-duplicate-terms shows each duplicate term in words, not JSON', async () => {
    const name = unique('Twin');
    const parent = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Twin parent') });
    const a = await wp().post<{ id: number; slug: string }>('/wp/v2/categories', { name });
    const b = await wp().post<{ id: number; slug: string }>('/wp/v2/categories', { name, parent: parent.id });
    made.categories.push(b.id, a.id, parent.id);
    const shown = await run(`find-duplicate-terms taxonomy=category`, /\d+ of \d+/);
    expect(shown).toContain(`${name} (id ${a.id}, slug ${a.slug}`);
    expect(shown).toContain(`${name} (id ${b.id}, slug ${b.slug}, parent ${parent.id}`);
    expect(shown).not.toMatch(/\[\{"|\{"id"/);
  });

  it("find-posts names each post's author by login, from one request for the page's authors", async () => {
    const title = unique('Authored');
    const authors = { mhamilton: 4, aturing: 8, dritchie: 13 };
    for (const author of Object.values(authors)) {
      const post = await wp().post<{ id: number }>('/wp/v2/posts', { title, status: 'publish', author });
      made.posts.push(post.id);
    }
    const since = proxy.events.length;
    const shown = await run(`find-posts search="${title}"`, '3 of 3');
    expect(shown).toMatch(/author_login/);
    for (const [login, id] of Object.entries(authors)) expect(shown).toMatch(new RegExp(`\\s${id}\\s+${login}\\b`));
    // One request for the page's authors, not one a post.
    expect(proxy.count('GET', /\/wp\/v2\/users\?/, since)).toBe(1);
  });
});

describe('a network account list as a table (#60.6)', { timeout: 300_000 }, () => {
  it('list-users network=true --format table shows each account’s sites as "site: role", not JSON', async () => {
    const net = await testNetwork();
    const env = { CMS_URL: net.url, CMS_USERNAME: net.username, CMS_APP_PASSWORD: net.appPassword, XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-tables-net-')) };
    const listed = await runCli(['invoke', 'list-users', 'network=true', '--format', 'table'], { env, timeoutMs: 120_000 });
    expect(listed.code, listed.stderr).toBe(0);
    const row = listed.stdout.split('\n').find((l) => /\bbob\b/.test(l));
    expect(row, listed.stdout).toMatch(/\b(main|sports|news|arts): [a-z]+/);
    expect(listed.stdout).not.toMatch(/\{"/);
  });
});
