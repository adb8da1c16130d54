import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackServer } from '../../src/evals/loopback.js';
import { runCli } from '../helpers/cli.js';

/**
 * Issue #26, finding 3, as the review found it: an https site advertising its REST root (or
 * redirecting) to http on another port of the same host got `Authorization: Basic …` in clear
 * text. Here the site is a real TLS server on 127.0.0.1 (a certificate made for the test, trusted
 * through NODE_EXTRA_CA_CERTS) and `cms-admin invoke` runs as a user runs it; the http port notes
 * every request it gets.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'cms-tls-'));
const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ],
  { stdio: 'ignore' },
);

const seen: Array<{ url: string; authorization?: string }> = [];
let plain: LoopbackServer;
let tls: https.Server;
let siteUrl = '';
/** What the https site answers: set by each test. */
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => {};

beforeAll(async () => {
  plain = await LoopbackServer.start((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  tls = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => answer(req, res));
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  siteUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await plain.stop();
  await new Promise((resolve) => tls.close(resolve));
});

const invoke = () =>
  runCli(['invoke', JSON.stringify({ tool: 'get-cms-categories', params: {} })], {
    env: {
      CMS_URL: siteUrl,
      CMS_USERNAME: 'admin',
      CMS_APP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx',
      NODE_EXTRA_CA_CERTS: cert,
      CMS_JOURNAL: 'off',
    },
  });

describe('an https site pointing to http on another port of the same host', () => {
  it('its Link header advertises the REST root there: rest_root_elsewhere naming both origins; nothing sent there', async () => {
    seen.length = 0;
    const elsewhere = `http://127.0.0.1:${new URL(plain.origin).port}/wp-json/`;
    answer = (req, res) => {
      if (req.url === '/' && req.method === 'HEAD')
        res.writeHead(200, { link: `<${elsewhere}>; rel="https://api.w.org/"` }).end();
      else res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>Not Found</title></html>');
    };
    const run = await invoke();
    const out = JSON.parse(run.stdout);
    expect(out.error.code, run.stdout + run.stderr).toBe('rest_root_elsewhere');
    expect(out.error.message).toContain(`sent only to ${siteUrl}`);
    expect(out.error.message).toContain(new URL(elsewhere).origin);
    expect(run.code).toBe(1);
    expect(seen).toEqual([]);
  });

  it('a 308 redirect there: site_redirects naming both origins; nothing sent there', async () => {
    seen.length = 0;
    answer = (req, res) => res.writeHead(308, { location: `${plain.origin}${req.url}` }).end();
    const run = await invoke();
    const out = JSON.parse(run.stdout);
    expect(out.error.code, run.stdout + run.stderr).toBe('site_redirects');
    expect(out.error.message).toContain(plain.origin);
    expect(out.error.message).toContain(siteUrl);
    expect(seen).toEqual([]);
  });
});
