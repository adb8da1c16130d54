import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPasswordsOf, authorizeLink, makeUser } from '../helpers/mcp-oauth.js';
import { type McpHttpChild, startMcpHttp } from '../helpers/mcp-http-cli.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';
import { MemoryOAuthClient, WpBrowser } from '../helpers/wp-browser.js';

/**
 * A hosted connector signs in with a Client ID Metadata Document (issue #49): its client id is
 * the https URL of its document, served here by the test on loopback with its own certificate
 * (trusted by the server through NODE_EXTRA_CA_CERTS, allowed by --allow-loopback-client-ids).
 * No registration; our consent page names the document's host; WordPress's
 * authorize-application.php by a scripted browser; `iss` (RFC 9207) in the response.
 */
const REDIRECT = 'http://127.0.0.1:1/oauth/callback';
const dir = mkdtempSync(path.join(tmpdir(), 'cms-cimd-'));
const cert = path.join(dir, 'cert.pem');
const key = path.join(dir, 'key.pem');
let docs: Server;
let docsBase = '';
const fetched: string[] = [];
const servers: McpHttpChild[] = [];

function documentOf(id: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: id,
    client_name: 'Hosted connector',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
    ...extra,
  };
}

async function startServer(extraArgs: string[]): Promise<string> {
  const site = testSite();
  const { CMS_USERNAME: _n, CMS_APP_PASSWORD: _p, CMS_MCP_TOKEN: _t, ...rest } = process.env;
  const server = await startMcpHttp(
    ['--auth', 'wordpress', '--port', '0', '--state-dir', mkdtempSync(path.join(dir, 'state-')), ...extraArgs],
    { ...rest, CMS_URL: site.url, NODE_EXTRA_CA_CERTS: cert },
  );
  servers.push(server);
  return server.url;
}

beforeAll(async () => {
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert,
  ], { stdio: 'ignore' });
  docs = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
    const id = `${docsBase}${req.url}`;
    fetched.push(req.url ?? '');
    if (req.url === '/connector/client.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(documentOf(id)));
    } else if (req.url === '/moved/client.json') {
      res.writeHead(302, { location: `${docsBase}/connector/client.json` }).end();
    } else if (req.url === '/big/client.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentOf(id, { pad: 'x'.repeat(20_000) })));
    } else if (req.url === '/other/client.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentOf(`${docsBase}/someone-else.json`)));
    } else if (req.url === '/web/client.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentOf(id, { application_type: 'web' })));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  docsBase = `https://127.0.0.1:${(docs.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const { child } of servers) child.kill();
  await new Promise<void>((resolve) => docs.close(() => resolve()));
  recordOutput(servers.map((server) => server.stderr()).join(''));
});

class DocumentClient extends MemoryOAuthClient {
  constructor(readonly clientMetadataUrl: string) {
    super('Hosted connector');
  }
}

describe('sign-in with a Client ID Metadata Document', () => {
  it('signs a person in without registration: consent names the document host, iss comes back, tools run as them', async () => {
    const url = await startServer(['--allow-loopback-client-ids']);
    const base = new URL(url).origin;
    const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ client_id_metadata_document_supported: true, authorization_response_iss_parameter_supported: true });
    expect(metadata.registration_endpoint).toBeDefined(); // dynamic registration stays, as the fallback

    const id = `${docsBase}/connector/client.json`;
    const oauth = new DocumentClient(id);
    const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth });
    await expect(new Client({ name: 'connector', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
    expect(oauth.authorizeUrl?.searchParams.get('client_id')).toBe(id);

    const person = await makeUser('editor');
    const browser = new WpBrowser(testSite().url);
    await browser.logIn(person.username, person.password);
    const page = await browser.open((oauth.authorizeUrl as URL).href);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`The app describes itself in a document at ${new URL(docsBase).host}`);
    expect(page.text).toContain('Hosted connector');
    const back = await browser.approve((oauth.authorizeUrl as URL).href);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('iss')).toBe(metadata.issuer);
    const code = back.searchParams.get('code');
    recordSecret(code ?? undefined);
    expect(code).toBeTruthy();
    await first.finishAuth(code as string);

    const client = new Client({ name: 'connector', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth }));
    try {
      const read = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
      expect(read.isError).toBe(false);
      expect((read.structuredContent as { total: number }).total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
    } finally {
      await client.close();
    }
    expect((await appPasswordsOf(person.id, 'Hosted connector')).length).toBe(1);
    // Kept by its Cache-Control (max-age=300): one fetch for /authorize, the consent and /token.
    expect(fetched.filter((p) => p === '/connector/client.json')).toHaveLength(1);
  });

  it('a denial comes back with iss too', async () => {
    const url = await startServer(['--allow-loopback-client-ids']);
    const id = `${docsBase}/connector/client.json`;
    const browser = new WpBrowser(testSite().url);
    const page = await browser.open(authorizeLink(url, id, REDIRECT));
    const denied = await browser.consent(page.action as string, page.fields, 'deny');
    const back = new URL(denied.headers.get('location') as string);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('iss')).toBe(`${new URL(url).origin}/`);
  });

  it.each([
    ['/moved/client.json', /redirects are not followed/],
    ['/big/client.json', /over 5120 bytes/],
    ['/other/client.json', /names another client_id/],
    ['/web/client.json', /web application .* https only/],
  ])('refuses the document at %s, saying why; no consent page', async (at, why) => {
    const url = await startServer(['--allow-loopback-client-ids']);
    const res = await fetch(authorizeLink(url, `${docsBase}${at}`, REDIRECT), { redirect: 'manual' });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toMatch(why);
  });

  it('without --allow-loopback-client-ids, a document on a loopback address is not fetched', async () => {
    const url = await startServer([]);
    const before = fetched.length;
    const res = await fetch(authorizeLink(url, `${docsBase}/connector/client.json`, REDIRECT), { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/not fetched from 127\.0\.0\.1: a loopback address/);
    expect(fetched.length).toBe(before);
    const plain = await fetch(authorizeLink(url, 'http://example.com/client.json', REDIRECT), { redirect: 'manual' });
    expect(plain.status).toBe(400);
  });

  // Issue #58.7: on a NAT64 or 6to4 network these reach internal hosts; refused before any
  // connection (the page names the address and why), with --allow-loopback-client-ids too.
  it.each([
    ['[64:ff9b::7f00:1]', /NAT64 address \(64:ff9b::\/96\) of 127\.0\.0\.1, a loopback address/],
    ['[64:ff9b::a9fe:a9fe]', /NAT64 address \(64:ff9b::\/96\) of 169\.254\.169\.254, a private or reserved address/],
    ['[2002:7f00:1::]', /6to4 address \(2002::\/16\) of 127\.0\.0\.1, a loopback address/],
    ['[2002:c0a8:101::1]', /6to4 address \(2002::\/16\) of 192\.168\.1\.1, a private or reserved address/],
    ['[::127.0.0.1]', /IPv4-compatible address \(::\/96, deprecated\)/],
    ['[::ffff:0:7f00:1]', /IPv4-translated address \(::ffff:0:0:0\/96\) of 127\.0\.0\.1, a loopback address/],
    ['[::ffff:127.0.0.1]', /IPv4-mapped address \(::ffff:0:0\/96\) of 127\.0\.0\.1, a loopback address/],
    ['[fec0::1]', /site-local address \(fec0::\/10, deprecated\)/],
    ['[2001:0:4136:e378:8000:63bf:80ff:fffe]', /Teredo/],
  ])('an IPv6 transition address %s is refused before any connection', async (host, why) => {
    const url = servers[0]?.url ?? (await startServer(['--allow-loopback-client-ids']));
    const port = new URL(docsBase).port;
    const before = fetched.length;
    const res = await fetch(authorizeLink(url, `https://${host}:${port}/connector/client.json`, REDIRECT), { redirect: 'manual' });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toContain(`not fetched from ${new URL(`https://${host}/`).hostname.replace(/^\[|\]$/g, '')}:`);
    expect(text).toMatch(why);
    expect(fetched.length).toBe(before);
  });
});
