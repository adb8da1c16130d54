import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { FaultProxy } from '../../helpers/fault-proxy.js';
import { walk } from '../../helpers/listing.js';
import { callIn, callOkIn, testSite, unique, wp } from '../../helpers/site.js';
import { categoriesNamed, siteAt, useQuirksProxy } from './quirks-setup.js';

const { proxy } = useQuirksProxy();

describe('a site that redirects', () => {
  it.each([301, 308])(
    'a %i to another port of the same host: refused, naming both origins; nothing is sent there or written',
    async (status) => {
      // Security review, issue #26, finding 3: a 308 to another port carried the application password.
      const other = await new FaultProxy(testSite().url).start();
      try {
        proxy().quirk({ redirect: { status: status as 308, to: other.url } });
        const name = unique('Redirected');
        const outcome = await callIn(siteAt(proxy().url), 'create-category', { name });
        expect(outcome).toMatchObject({
          ok: false,
          error: {
            code: 'site_redirects',
            message: expect.stringContaining(`another origin (${other.url}) than CMS_URL's (${proxy().url})`),
            hint: expect.stringContaining(other.url),
          },
        });
        expect(other.count()).toBe(0);
        expect(await categoriesNamed(name)).toEqual([]);
      } finally {
        await other.stop();
      }
    },
  );

  it('to another host: a clear error naming the address; nothing is written', async () => {
    const port = new URL(testSite().url).port;
    proxy().quirk({ redirect: { status: 301, to: `http://localhost:${port}` } });
    const name = unique('OtherHost');
    const outcome = await callIn(siteAt(proxy().url), 'create-category', { name });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('site_redirects');
    expect(outcome.error.hint).toContain(`http://localhost:${port}`);
    expect(await categoriesNamed(name)).toEqual([]);
  });

  it.each([301, 302])(
    'a %i on a write is refused (it would become a GET): nothing is created, the error names the redirect',
    async (status) => {
      proxy().quirk({ redirect: { status: status as 301, method: 'POST', trailingSlash: true } });
      const name = unique('Write301');
      const outcome = await callIn(siteAt(proxy().url), 'create-category', { name });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'write_redirected' } });
      if (!outcome.ok) expect(outcome.error.message).toMatch(new RegExp(`HTTP ${status}.*categories/`));
      expect(await categoriesNamed(name)).toEqual([]);
    },
  );

  it.each([307, 308])('a %i on a write is re-sent with method and body: created exactly once', async (status) => {
    proxy().quirk({ redirect: { status: status as 307, method: 'POST', trailingSlash: true } });
    const name = unique('Write308');
    const parent = (await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Parent') })).id;
    const created = await callOkIn(siteAt(proxy().url), 'create-category', { name, parent });
    const onSite = await wp().get<{ name: string; parent: number }>(`/wp/v2/categories/${created.id}`);
    expect(onSite).toMatchObject({ name, parent });
    expect(await categoriesNamed(name)).toHaveLength(1);
  });

  it('with a trailing slash on every URL: reads follow and return what the site holds', async () => {
    proxy().quirk({ redirect: { status: 301, trailingSlash: true, method: 'GET' } });
    const tags = await callOkIn(siteAt(proxy().url), 'get-cms-tags');
    expect(tags.total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
  });
});

describe('PHP output before the JSON (display_errors on)', () => {
  it('notices, a deprecation and a BOM: lists and writes are right; one warning names the cause', async () => {
    proxy().quirk({ phpOutput: { notice: true, bom: true } });
    const site = siteAt(proxy().url);
    const listed = await walk('get-cms-categories', {}, site);
    const direct = await wp().all<{ id: number; name: string }>('/wp/v2/categories', {
      hide_empty: false,
      _fields: 'id',
    });
    expect(listed.items.map((c) => c.id).sort()).toEqual(direct.map((c) => c.id).sort());
    expect(listed.items.every((c) => typeof c.id === 'number' && c.name)).toBe(true);
    const name = unique('Noticed');
    const created = await callOkIn(site, 'create-category', { name });
    expect(await categoriesNamed(name)).toEqual([{ id: created.id, name }]);
    const warnings = site.client.warnings.filter((w) => w.includes('before its JSON'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/byte order mark.*PHP output.*Undefined index: layout/);
    expect(warnings[0]).toContain('WP_DEBUG_DISPLAY');
  });
});

describe('HTML instead of the REST API', () => {
  const cases = [
    { status: 200, page: 'home', code: 'not_json', says: 'Sandbox – Just another WordPress site' },
    { status: 403, page: 'challenge', code: 'http_403', says: 'Just a moment...' },
    { status: 503, page: 'maintenance', code: 'site_maintenance', says: 'maintenance' },
  ] as const;
  it.each(cases)(
    'HTTP $status $page page: an error naming what came back, never data',
    async ({ status, page, code, says }) => {
      proxy().quirk({ html: { status, page, path: /categories/ } });
      const outcome = await callIn(siteAt(proxy().url), 'get-cms-categories');
      expect(outcome).toMatchObject({ ok: false, error: { code } });
      if (!outcome.ok) {
        expect(outcome.error.message).toContain(says);
        expect(outcome.error.hint).toBeTruthy();
      }
    },
  );

  it('a challenge page on the very first request (the read itself, #61) is http_403 naming the page, not a password problem', async () => {
    proxy().quirk({ html: { status: 403, page: 'challenge', path: /^\/wp-json\// } });
    const outcome = await callIn(siteAt(proxy().url), 'get-cms-tags');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'http_403' } });
    if (!outcome.ok) {
      expect(outcome.error.message).toContain('Just a moment...');
      expect(outcome.error.hint).toMatch(/firewall, CDN or security plugin/);
    }
  });

  it('the same through `cms-admin invoke`, as the user who filed #28 ran it: http_403 naming the page, exit 1', async () => {
    proxy().quirk({ html: { status: 403, page: 'challenge', path: /^\/wp-json\// } });
    const { username, appPassword } = testSite();
    const run = await runCli(['invoke', '{"tool":"get-cms-tags"}'], {
      env: { CMS_URL: proxy().url, CMS_USERNAME: username, CMS_APP_PASSWORD: appPassword, CMS_JOURNAL: 'off' },
    });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const { error } = JSON.parse(run.stdout);
    expect(error.code).toBe('http_403');
    expect(error.message).toContain('Just a moment...');
    expect(`${error.message} ${error.hint}`).not.toMatch(/password/i);
  });

  it('a write answered with an HTML page is an error, and the site holds nothing', async () => {
    proxy().quirk({ html: { status: 200, page: 'home', method: 'POST' } });
    const name = unique('HtmlWrite');
    const outcome = await callIn(siteAt(proxy().url), 'create-category', { name });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'not_json' } });
    expect(await categoriesNamed(name)).toEqual([]);
  });

  it('maintenance through WordPress’s JSON wp_die handler: site_maintenance, not retried for long', async () => {
    proxy().quirk({ maintenanceJson: true });
    const site = siteAt(proxy().url);
    const outcome = await callIn(site, 'get-cms-tags');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'site_maintenance' } });
    if (!outcome.ok) expect(outcome.error.hint).toContain('.maintenance');
    expect(site.client.stats.retries).toBe(0);
  });
});
