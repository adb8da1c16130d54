import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { runCli } from '../helpers/cli.js';
import { testSite, wp } from '../helpers/site.js';

/**
 * `cms-admin invoke` of a read makes one WordPress request (#61): no connect check before it; the
 * read's own answer confirms the credentials (the companion plugin names the account it served),
 * and a failure still gives the errors the check gave. Counted at a proxy in front of the sandbox.
 */
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
});
afterEach(() => {
  proxy.clear();
});
afterAll(() => proxy.stop());

async function invoke(envelope: object, env: Record<string, string> = {}) {
  const site = testSite();
  const since = proxy.events.length;
  const run = await runCli(['invoke', JSON.stringify(envelope)], {
    env: { CMS_URL: proxy.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, ...env },
  });
  const out = JSON.parse(run.stdout || '{}') as { ok: boolean; result?: any; error?: { code: string; message: string; hint?: string } };
  return { run, out, requests: proxy.events.slice(since) };
}

describe('cms-admin invoke of a read', () => {
  it('makes exactly one WordPress request: the read itself', async () => {
    const { run, out, requests } = await invoke({ tool: 'get-cms-categories' });
    expect(run.code, run.stderr).toBe(0);
    expect(out.result.total).toBe(await wp().count('/wp/v2/categories', { hide_empty: false }));
    expect(requests.map((e) => `${e.method} ${e.path.replace(/\?.*/, '')}`)).toEqual(['GET /wp-json/wp/v2/categories']);
  });

  it('a wrong application password: authentication_failed naming the settings, as the check said', async () => {
    const { run, out } = await invoke({ tool: 'get-cms-categories' }, { CMS_APP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx' });
    expect(run.code).toBe(1);
    expect(out.error?.code).toBe('authentication_failed');
    expect(out.error?.message).toMatch(/(Check|either) CMS_USERNAME and CMS_APP_PASSWORD[; ]/);
    expect(run.stdout + run.stderr).not.toContain('abcd efgh');
  });

  it('credentials that never arrive, on a route any visitor may read: refused as logged out, with the .htaccess fix', async () => {
    proxy.quirk({ dropAuthorization: true });
    const { run, out, requests } = await invoke({ tool: 'get-cms-categories' });
    expect(run.code).toBe(1);
    expect(out.error?.code).toBe('authentication_failed');
    expect(out.error?.message).toContain('logged out');
    expect(out.error?.hint).toContain('SetEnvIf Authorization "(.*)" HTTP_AUTHORIZATION=$1');
    // The read was answered as to a visitor; the answer named no account, so the check was made.
    expect(requests.map((e) => e.path.replace(/\?.*/, ''))).toEqual(['/wp-json/wp/v2/categories', '/wp-json/wp/v2/users/me']);
  });

  it('a site that is down: the network error, naming the request', async () => {
    const port = await closedPort();
    const { run, out } = await invoke({ tool: 'get-cms-categories' }, { CMS_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(1);
    expect(out.error?.code).toBe('ECONNREFUSED');
    expect(out.error?.message).toMatch(new RegExp(`^Request to WordPress failed \\(ECONNREFUSED\\): GET http://127\\.0\\.0\\.1:${port}/wp-json/`));
  });

  it('an HTML page where JSON was expected: named, with the firewall hint', async () => {
    proxy.quirk({ html: { status: 403, page: 'challenge' } });
    const { run, out } = await invoke({ tool: 'get-cms-categories' });
    expect(run.code).toBe(1);
    expect(out.error?.code).toBe('http_403');
    expect(out.error?.message).toContain('got HTTP 403 with a page titled "Just a moment..."');
    expect(out.error?.hint).toMatch(/firewall, CDN or security plugin/);
  });

  it('a redirect of REST requests: followed with a warning, the read answered', async () => {
    proxy.quirk({ redirect: { status: 301, trailingSlash: true, method: 'GET' } });
    const { run, out, requests } = await invoke({ tool: 'get-cms-categories' });
    expect(run.code, run.stderr).toBe(0);
    expect(out.ok).toBe(true);
    expect(run.stderr).toContain('redirects REST requests (HTTP 301');
    expect(requests).toHaveLength(2);
  });
});

/** A port nothing listens on (taken from the system, then let go). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
