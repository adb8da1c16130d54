import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixedPorts } from '../helpers/ports.js';
import { testSandbox } from '../helpers/sandboxes.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coreProblem, versionCoreDir } from '../../src/sandbox/core.js';
import {
  DEFAULT_WP,
  parseWpVersion,
  readMailLog,
  SUPPORTED_WP,
  siteDown,
  siteStatus,
  siteUp,
} from '../../src/sandbox/index.js';

/** Checks the real test sandbox started by test/global-setup.ts (no mocks). */
const sandbox = testSandbox();
const auth = `Basic ${Buffer.from(`${sandbox.username}:${sandbox.appPassword}`).toString('base64')}`;
const quiet = () => {};

async function get(path: string, withAuth = true): Promise<Response> {
  return fetch(`${sandbox.url}/wp-json${path}`, { headers: withAuth ? { authorization: auth } : {} });
}

async function json<T = any>(path: string): Promise<T> {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

async function total(path: string): Promise<number> {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  await res.arrayBuffer();
  return Number(res.headers.get('x-wp-total'));
}

describe('test sandbox', () => {
  it('answers the REST index without auth', async () => {
    const res = await get('/', false);
    expect(res.status).toBe(200);
    const index = (await res.json()) as { namespaces: string[] };
    expect(index.namespaces).toContain('wp/v2');
  });

  it('authenticates the admin with the application password over plain http', async () => {
    const me = await json<{ slug: string; roles: string[] }>('/wp/v2/users/me?context=edit');
    expect(me.slug).toBe(sandbox.username);
    expect(me.roles).toContain('administrator');
    const bad = await fetch(`${sandbox.url}/wp-json/wp/v2/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`${sandbox.username}:wrong wrong wrong`).toString('base64')}` },
    });
    expect(bad.status).toBe(401);
  });

  it('reports itself running, installed and seeded, on the WordPress version asked for', async () => {
    const status = await siteStatus({ home: sandbox.home, name: sandbox.name });
    expect(status).toMatchObject({ running: true, installed: true, seeded: true, url: sandbox.url });
    const wanted = process.env.CMS_SANDBOX_WP || DEFAULT_WP;
    expect(status.wordpress?.startsWith(`${wanted}.`), `${status.wordpress} is ${wanted}`).toBe(true);
    // The site itself says the same (the generator tag of its feed names the running version).
    const feed = await (await fetch(`${sandbox.url}/?feed=rss2`)).text();
    expect(feed).toContain(`<generator>https://wordpress.org/?v=${status.wordpress}</generator>`);
  });

  it("serves a front page in the default theme that Debian's wordpress package recommends", async () => {
    // 6.1 recommends twentytwentythree, 6.8 and 7.1 twentytwentyfive: WordPress's own default of each.
    const wp = parseWpVersion(process.env.CMS_SANDBOX_WP || DEFAULT_WP);
    const marker = JSON.parse(await readFile(join(versionCoreDir(join(sandbox.home, 'core'), wp), 'READY.json'), 'utf8'));
    const theme = wp === '6.1' ? 'twentytwentythree' : 'twentytwentyfive';
    expect(marker.themes).toEqual([theme]);
    const res = await fetch(`${sandbox.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`/wp-content/themes/${theme}/`);
    expect(html).toMatch(/<\/html>\s*$/);
  });

  it('refuses to switch an existing instance to another WordPress version, naming the way out', async () => {
    const other = SUPPORTED_WP.find((v) => v !== (process.env.CMS_SANDBOX_WP || DEFAULT_WP));
    await expect(siteUp({ home: sandbox.home, name: sandbox.name, wp: other, log: quiet })).rejects.toThrow(
      new RegExp(`runs WordPress .* cannot switch to ${other}; use another name`),
    );
    await expect(siteUp({ home: sandbox.home, name: sandbox.name, wp: '5.9', log: quiet })).rejects.toThrow(
      /unsupported WordPress version "5.9".*supported: 6.1, 6.8, 7.1/,
    );
    expect((await siteStatus({ home: sandbox.home, name: sandbox.name })).running).toBe(true);
  });

  it('keeps its backend: another one, or an unknown one, is refused with the choices', async () => {
    const at = { home: sandbox.home, name: sandbox.name, log: quiet };
    expect((await siteStatus(at)).backend).toBe('native');
    await expect(siteUp({ ...at, backend: 'playground' })).rejects.toThrow(/uses the native backend; use another --name/);
    await expect(siteUp({ ...at, backend: 'docker' })).rejects.toThrow(/unknown sandbox backend "docker".*auto, native, playground/);
    expect((await siteStatus(at)).running).toBe(true);
  });
});

describe('WordPress core cache', () => {
  const wp = parseWpVersion(process.env.CMS_SANDBOX_WP || DEFAULT_WP);
  const real = versionCoreDir(join(sandbox.home, 'core'), wp);

  /** A hard-linked copy of the real cache that a test may break without touching the original. */
  async function copyOfCache(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'core-copy-'));
    await promisify(execFile)('cp', ['-al', `${real}/.`, dir]);
    return dir;
  }

  it('accepts the complete cache the test site was made from', async () => {
    expect(await coreProblem(real, wp)).toBeUndefined();
  });

  it('detects a truncated or a missing file, a missing marker and another version', async () => {
    const dir = await copyOfCache();
    try {
      expect(await coreProblem(dir, wp)).toBeUndefined();
      const file = join(dir, 'wordpress', 'wp-includes', 'class-wp-query.php');
      const content = await readFile(file, 'utf8');
      await rm(file); // unlink first: the copy's inode is shared with the real cache
      await writeFile(file, content.slice(0, 100));
      expect(await coreProblem(dir, wp)).toMatch(/files changed/);
      await rm(file);
      expect(await coreProblem(dir, wp)).toMatch(/files changed/);
      await writeFile(file, content);
      expect(await coreProblem(dir, wp)).toBeUndefined();
      const other = SUPPORTED_WP.find((v) => v !== wp)!;
      expect(await coreProblem(dir, other)).toMatch(new RegExp(`not ${other}`));
      const marker = JSON.parse(await readFile(join(dir, 'READY.json'), 'utf8'));
      await rm(join(dir, 'READY.json'));
      await writeFile(join(dir, 'READY.json'), JSON.stringify({ ...marker, themes: undefined }));
      expect(await coreProblem(dir, wp)).toMatch(/made without its default theme/);
      await rm(join(dir, 'READY.json'));
      expect(await coreProblem(dir, wp)).toMatch(/incomplete/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('seeded dataset', () => {
  it('has at least 30 categories, with descriptions and a 3-level chain', async () => {
    const cats = await json<{ id: number; parent: number; description: string }[]>('/wp/v2/categories?per_page=100');
    expect(cats.length).toBeGreaterThanOrEqual(30);
    expect(cats.filter((c) => c.description).length).toBeGreaterThanOrEqual(20);
    const parent = new Map(cats.map((c) => [c.id, c.parent]));
    const depth = (id: number): number => (parent.get(id) ? 1 + depth(parent.get(id)!) : 1);
    expect(Math.max(...cats.map((c) => depth(c.id)))).toBeGreaterThanOrEqual(3);
  });

  it('has at least 50 tags', async () => {
    expect(await total('/wp/v2/tags?per_page=1')).toBeGreaterThanOrEqual(50);
  });

  it('has at least 200 posts, in every status', async () => {
    expect(
      await total('/wp/v2/posts?per_page=1&status=publish,draft,pending,private,future&context=edit'),
    ).toBeGreaterThanOrEqual(200);
    for (const status of ['publish', 'draft', 'pending', 'private', 'future']) {
      expect(await total(`/wp/v2/posts?per_page=1&status=${status}&context=edit`), status).toBeGreaterThan(0);
    }
    const [future] = await json<{ date: string }[]>('/wp/v2/posts?per_page=1&status=future&context=edit');
    expect(new Date(future!.date).getTime()).toBeGreaterThan(Date.now());
  });

  it('has at least 20 users across all five roles, registered 2024-2026', async () => {
    const users = await json<{ roles: string[]; registered_date: string; email: string; name: string }[]>(
      '/wp/v2/users?per_page=100&context=edit',
    );
    expect(users.length).toBeGreaterThanOrEqual(20);
    const roles = new Set(users.flatMap((u) => u.roles));
    for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber'])
      expect(roles).toContain(role);
    const years = new Set(users.map((u) => u.registered_date.slice(0, 4)));
    for (const year of ['2024', '2025', '2026']) expect(years).toContain(year);
    expect(users.every((u) => u.email && u.name)).toBe(true);
  });

  it('lists the custom genre taxonomy with terms', async () => {
    const taxonomies = await json<Record<string, { rest_base: string; hierarchical: boolean }>>('/wp/v2/taxonomies');
    expect(taxonomies.genre).toMatchObject({ rest_base: 'genres', hierarchical: false });
    expect(await total('/wp/v2/genres?per_page=1')).toBeGreaterThan(0);
  });
});

describe('mail capture', () => {
  it('writes wp_mail() to the mail log instead of sending it', async () => {
    // A lost-password request is the simplest core flow that sends mail over HTTP. Other test
    // files may have mailed (or changed the address of) this user: look at new mail only.
    const [user] = await json<{ email: string }[]>('/wp/v2/users?slug=vcerf&context=edit');
    const before = (await readMailLog({ home: sandbox.home, name: sandbox.name })).length;
    const res = await fetch(`${sandbox.url}/wp-login.php?action=lostpassword`, {
      method: 'POST',
      body: new URLSearchParams({ user_login: 'vcerf', 'wp-submit': 'Get New Password' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const mails = (await readMailLog({ home: sandbox.home, name: sandbox.name })).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual([user?.email]);
    expect(mails[0]?.subject).toMatch(/Password Reset/);
    expect(mails[0]?.message).toContain('action=rp');
  });
});

describe('site down / up on a throwaway instance', () => {
  const opts = {
    home: sandbox.home,
    name: `${sandbox.name}-down`, // one per test instance (and so per WordPress version)
    port: fixedPorts().downTest,
    wp: process.env.CMS_SANDBOX_WP || DEFAULT_WP,
    log: quiet,
  };
  const instanceProcesses = async () => {
    try {
      const { stdout } = await promisify(execFile)('pgrep', ['-f', `${sandbox.home}/${opts.name}/`]);
      return stdout.trim().split('\n').filter(Boolean);
    } catch {
      return []; // pgrep exits 1 when nothing matches
    }
  };

  it('leaves no php or mariadbd process after down, and comes back up', async () => {
    const creds = await siteUp(opts);
    expect((await fetch(`${creds.url}/wp-json/`)).status).toBe(200);
    expect((await instanceProcesses()).length).toBeGreaterThanOrEqual(2);

    await siteDown(opts);
    expect(await instanceProcesses()).toEqual([]);
    expect((await siteStatus(opts)).running).toBe(false);
    // An instance made before the sandbox unpacked the default theme gets it at its next start.
    const themes = join(sandbox.home, opts.name, 'wordpress', 'wp-content', 'themes');
    await rm(themes, { recursive: true, force: true });

    const again = await siteUp(opts);
    const front = await (await fetch(`${again.url}/`)).text();
    expect(front).toMatch(/\/wp-content\/themes\/twentytwenty(three|five)\//);
    expect(again.appPassword).toBe(creds.appPassword);
    const me = await fetch(`${again.url}/wp-json/wp/v2/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`${again.username}:${again.appPassword}`).toString('base64')}` },
    });
    expect(me.status).toBe(200);

    await siteDown(opts);
    expect(await instanceProcesses()).toEqual([]);
  }, 120_000);
});
