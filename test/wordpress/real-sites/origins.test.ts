import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { LoopbackServer } from '../../../src/evals/loopback.js';
import { walk } from '../../helpers/listing.js';
import { callIn, testSite, unique } from '../../helpers/site.js';
import { siteAt, useQuirksProxy } from './quirks-setup.js';

/**
 * Security review, issue #26: the application password goes only to CMS_URL's origin (finding
 * 3), and credentials written into CMS_URL show in no message (finding 7).
 */
const { proxy } = useQuirksProxy();

/** A server on 127.0.0.1 that notes every request it gets, with its Authorization header. */
async function recorder(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Array<{ method: string; url: string; authorization?: string }> = [];
  const server = await LoopbackServer.start((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    answer(req, res);
  });
  return { server, seen };
}

describe('the REST root from the Link header', () => {
  it('at another port of the same host: an error naming both origins; nothing is sent there', async () => {
    const other = await recorder((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    // A site whose /wp-json/ is not the API and whose home page advertises the other port.
    const site = await recorder((req, res) => {
      if (req.url === '/' && req.method === 'HEAD') {
        res.writeHead(200, { link: `<${other.server.origin}/wp-json/>; rel="https://api.w.org/"` }).end();
      } else res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>Not Found</title></html>');
    });
    try {
      const context = createContext({ ...testSite(), url: site.server.origin });
      const outcome = await callIn(context, 'get-cms-categories', {});
      expect(outcome).toMatchObject({
        ok: false,
        error: {
          code: 'rest_root_elsewhere',
          message: expect.stringContaining(`advertises its REST API at ${other.server.origin}/wp-json/, another origin`),
          hint: expect.stringContaining(`set CMS_URL to that address`),
        },
      });
      expect(outcome.ok || outcome.error.message).toContain(`sent only to ${site.server.origin}`);
      expect(other.seen).toEqual([]);
      // The home page, which needs none, got no credentials either.
      expect(site.seen.find((r) => r.url === '/')?.authorization).toBeUndefined();
    } finally {
      await Promise.all([other.server.stop(), site.server.stop()]);
    }
  });
});

describe('credentials in CMS_URL', () => {
  it('appear in no warning, error or result (redirect and paging warnings included)', async () => {
    const secret = `Url-Secret-${process.pid}`;
    const withCredentials = proxy().url.replace('http://', `http://someone:${secret}@`);
    proxy().quirk({ stripTotals: true, redirect: { status: 301, trailingSlash: true, method: 'GET' } });
    const site = siteAt(withCredentials);
    const listed = await walk('get-cms-categories', { limit: 20 }, site);
    expect(listed.items.length).toBeGreaterThan(0);
    // Short pages without totals: the paging warning.
    expect((await site.client.all('/wp/v2/tags', { per_page: 5, hide_empty: false, _fields: 'id' })).length).toBeGreaterThan(5);
    proxy().quirk({ redirect: { status: 301, trailingSlash: true, method: 'POST' } });
    const refused = await callIn(siteAt(withCredentials), 'create-category', { name: unique('Never') });
    expect(refused).toMatchObject({ ok: false, error: { code: 'write_redirected' } });
    const warnings = site.client.warnings.join('\n');
    expect(warnings).toContain('redirects');
    expect(warnings).toContain('X-WP-Total');
    expect(warnings).toContain(proxy().url);
    for (const text of [warnings, JSON.stringify(listed), JSON.stringify(refused), site.client.siteUrl]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('someone:');
    }
  });
});
