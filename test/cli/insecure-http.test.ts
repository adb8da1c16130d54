import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordPressClient } from '../../src/client/index.js';
import { createContext, siteConfigFromEnv } from '../../src/config.js';
import { isLoopbackHost } from '../../src/client/insecure-http.js';
import { LoopbackServer } from '../../src/evals/loopback.js';
import { TaxonomyToolkit } from '../../src/toolkits.js';
import { runCli } from '../helpers/cli.js';

/**
 * Issue #48 finding 6: an `http://` site address sent the application password in clear text on
 * the first request, and a site that redirects to https was answered "nothing was sent there".
 * Plain http is refused for any host that is not this machine, before any request, unless the
 * person allows it; the redirect message says when the password already went out unencrypted.
 *
 * Every request here goes to 127.0.0.1: `http_proxy` points axios at a recorder standing in for
 * the network path, so a request to http://shop.example (a name that is not loopback) is seen
 * with what it carried, and a refused address is proven to send nothing.
 */
const PASSWORD = 'abcd efgh ijkl mnop qrst uvwx';
const BASIC = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const SHOP = 'http://shop.example';
const seen: Array<{ url: string; authorization?: string }> = [];
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => {};
let network: LoopbackServer;
let dir: string;

beforeAll(async () => {
  network = await LoopbackServer.start((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    answer(req, res);
  });
  dir = mkdtempSync(path.join(tmpdir(), 'cms-insecure-'));
});
afterAll(async () => {
  await network.stop();
});

/** `cms-admin …` with the recorder as the network path; no site but the one given. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(args, {
    input: `${PASSWORD}\n`,
    env: {
      http_proxy: network.origin,
      HTTP_PROXY: network.origin,
      npm_config_http_proxy: undefined,
      npm_config_proxy: undefined,
      no_proxy: '',
      NO_PROXY: '',
      CMS_SITES_FILE: path.join(dir, 'sites.json'),
      CMS_JOURNAL: 'off',
      CMS_URL: undefined,
      CMS_USERNAME: undefined,
      CMS_APP_PASSWORD: undefined,
      CMS_SITE: undefined,
      CMS_ALLOW_INSECURE_HTTP: undefined,
      ...env,
    },
  });
}
const listCategories = JSON.stringify({ tool: 'get-cms-categories', params: {} });
const viaEnv = { CMS_URL: SHOP, CMS_USERNAME: 'admin', CMS_APP_PASSWORD: PASSWORD };

describe('plain http to a host that is not this machine', () => {
  it('is refused before any request: sites add (checked or not), a profile, CMS_URL, mcp --http sign-in; exit 2 naming https and the flag', async () => {
    seen.length = 0;
    answer = (_req, res) => res.writeHead(500).end();
    for (const args of [
      ['sites', 'add', 'shop', '--url', SHOP, '--username', 'admin'],
      ['sites', 'add', 'shop', '--url', `${SHOP}/blog`, '--username', 'admin', '--no-check'],
    ]) {
      const run = await cli(args);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--url ${args[4]} is plain http to another machine`);
      expect(run.stderr).toContain('https://shop.example');
      expect(run.stderr).toContain('--allow-insecure-http');
    }
    expect(existsSync(path.join(dir, 'sites.json'))).toBe(false);

    const invoked = await cli(['invoke', listCategories], viaEnv);
    expect(invoked.code, invoked.stderr).toBe(2);
    expect(invoked.stdout + invoked.stderr).toContain(`CMS_URL ${SHOP} is plain http to another machine`);
    const mcp = await cli(['mcp', '--http', '--port', '0'], { CMS_URL: SHOP });
    expect(mcp.code, mcp.stderr).toBe(2);
    expect(mcp.stderr).toContain('plain http to another machine');
    expect(seen).toEqual([]);

    // Saved with the flag (nothing sent: --no-check); used later, the profile is refused without it.
    const saved = await cli(['sites', 'add', 'shop', '--url', SHOP, '--username', 'admin', '--no-check', '--allow-insecure-http']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'sites.json'), 'utf8')).sites[0].url).toBe(SHOP);
    const profile = await cli(['invoke', '--site', 'shop', listCategories]);
    expect(profile.code, profile.stderr).toBe(2);
    expect(profile.stdout + profile.stderr).toContain(`The profile shop's url ${SHOP} is plain http to another machine`);
    expect(seen).toEqual([]);
  });

  it('the library refuses it too (toolkits, WordPressClient) unless allowInsecureHttp; loopback needs nothing', () => {
    const site = { url: SHOP, username: 'admin', appPassword: PASSWORD };
    expect(() => new TaxonomyToolkit({ site, journal: 'off' })).toThrow(/site\.url http:\/\/shop\.example is plain http/);
    expect(() => new TaxonomyToolkit({ sites: [{ ...site, name: 'a' }, { ...site, name: 'b', url: 'https://b.example' }], journal: 'off' })).toThrow(
      /sites\[a\]\.url/,
    );
    let refused: unknown;
    try {
      new WordPressClient(site);
    } catch (err) {
      refused = err;
    }
    expect(refused).toMatchObject({ name: 'WordPressError', code: 'insecure_http' });
    expect(new TaxonomyToolkit({ site: { ...site, allowInsecureHttp: true }, journal: 'off' }).tools.length).toBeGreaterThan(0);
    // The env a library app passes (resolveSiteConfig / siteConfigFromEnv), then createContext.
    const env = { CMS_URL: SHOP, CMS_USERNAME: 'admin', CMS_APP_PASSWORD: PASSWORD };
    expect(() => siteConfigFromEnv(env)).toThrow(/CMS_URL http:\/\/shop\.example is plain http/);
    const allowed = siteConfigFromEnv({ ...env, CMS_ALLOW_INSECURE_HTTP: '1' });
    expect(createContext(allowed as NonNullable<typeof allowed>).client.siteUrl).toBe(SHOP);
    expect(new WordPressClient({ ...site, allowInsecureHttp: true }).siteUrl).toBe(SHOP);
    for (const host of ['127.0.0.1', '127.8.9.1', '[::1]', 'localhost', 'wp.localhost']) expect(isLoopbackHost(host), host).toBe(true);
    for (const url of ['http://127.1:8080', 'http://0x7f.0.0.1', 'http://[::ffff:127.0.0.1]'])
      expect(isLoopbackHost(new URL(url).hostname), url).toBe(true);
    for (const host of ['shop.example', '10.0.0.5', '192.168.1.2', 'localhost.example', '[::2]', '127.0.0.1.nip.io'])
      expect(isLoopbackHost(host), host).toBe(false);
    expect(new WordPressClient({ ...site, url: 'http://127.0.0.1:9' }).siteUrl).toBe('http://127.0.0.1:9');
  });

  it('allowed (--allow-insecure-http, CMS_ALLOW_INSECURE_HTTP=1), a redirect to https says the password already crossed the network unencrypted', async () => {
    seen.length = 0;
    answer = (req, res) => res.writeHead(301, { location: `https://shop.example${new URL(req.url ?? '/', SHOP).pathname}` }).end();
    for (const allow of [['--allow-insecure-http'], []]) {
      const run = await cli(['invoke', listCategories, ...allow], { ...viaEnv, ...(allow.length ? {} : { CMS_ALLOW_INSECURE_HTTP: '1' }) });
      const out = JSON.parse(run.stdout);
      expect(out.error.code, run.stdout + run.stderr).toBe('site_redirects');
      expect(out.error.message).toContain('nothing was sent there');
      expect(out.error.message).toContain(`the request to ${SHOP} had already carried it unencrypted (plain http), readable by anyone on the network path`);
      expect(out.error.hint).toMatch(/^Treat the application password as exposed: revoke it/);
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    }
    // What the network saw: the password, in clear (which is why it is refused by default).
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((request) => request.url.startsWith(`${SHOP}/`) && request.authorization === BASIC)).toBe(true);
  });

  it('allowed, a site whose Link header names an https REST root: rest_root_elsewhere says the same', async () => {
    seen.length = 0;
    answer = (req, res) => {
      if (req.method === 'HEAD') res.writeHead(200, { link: '<https://shop.example/wp-json/>; rel="https://api.w.org/"' }).end();
      else res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>Not Found</title></html>');
    };
    const run = await cli(['invoke', listCategories], { ...viaEnv, CMS_ALLOW_INSECURE_HTTP: '1' });
    const out = JSON.parse(run.stdout);
    expect(out.error.code, run.stdout + run.stderr).toBe('rest_root_elsewhere');
    expect(out.error.message).toContain(`the request to ${SHOP} had already carried it unencrypted`);
    expect(out.error.hint).toMatch(/^Treat the application password as exposed/);
    expect(seen.find((request) => request.url.includes('/wp-json/'))?.authorization).toBe(BASIC);
  });

  it('a loopback site redirecting http → https: the message says the password went out unencrypted on this machine', async () => {
    seen.length = 0;
    // Asked directly or through the proxy (the same server): the path either way.
    answer = (req, res) => res.writeHead(308, { location: `https://127.0.0.1:1${new URL(req.url ?? '/', network.origin).pathname}` }).end();
    const run = await cli(['invoke', listCategories], { CMS_URL: network.origin, CMS_USERNAME: 'admin', CMS_APP_PASSWORD: PASSWORD });
    const out = JSON.parse(run.stdout);
    expect(out.error.code, run.stdout + run.stderr).toBe('site_redirects');
    expect(out.error.message).toContain(`The request to ${network.origin} did carry it unencrypted (plain http), on this machine only`);
    expect(seen[0]?.authorization).toBe(BASIC);
  });
});
