import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { testSite } from '../helpers/site.js';

// Issue #33 finding 7, DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1
// talks to the server with `Host: evil.example.com` and no Origin (a same-origin request, to the
// browser). Every path, in both auth modes, answers only for the server's own host.
const site = testSite();
const token = `host-test-token-${'x'.repeat(20)}`;
let tokenServer: McpHttpServer;
let signInServer: McpHttpServer;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rebind', version: '1' } },
});

/** A raw request with the Host header we choose (fetch does not let a script set it). */
function send(url: string, method: string, pathname: string, host: string, body?: string) {
  const target = new URL(pathname, url);
  return new Promise<{ status: number; session?: string }>((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: {
          host,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  tokenServer = await serveMcpHttp(createContext(site), {}, {}, { port: 0, token });
  signInServer = await serveMcpHttp(
    createContext(site),
    {},
    {},
    {
      port: 0,
      publicUrl: 'https://mcp.example.org',
      wordpress: {
        siteUrl: site.url,
        stateDir: mkdtempSync(path.join(tmpdir(), 'cms-host-')),
        contextFor: (login) => createContext({ url: site.url, ...login }),
      },
    },
  );
});

afterAll(async () => {
  await tokenServer?.close();
  await signInServer?.close();
});

describe('mcp --http: the Host header', () => {
  it('token mode: Host evil.example.com without Origin is refused (421) and makes no session; its own host works', async () => {
    const own = new URL(tokenServer.url).host;
    const evil = await send(tokenServer.url, 'POST', '/mcp', 'evil.example.com', INITIALIZE);
    expect(evil).toEqual({ status: 421, session: undefined });
    expect(tokenServer.sessions()).toBe(0);
    const ok = await send(tokenServer.url, 'POST', '/mcp', own, INITIALIZE);
    expect(ok.status).toBe(200);
    expect(ok.session).toBeTruthy();
    expect(tokenServer.sessions()).toBe(1);
  });

  it('sign-in mode: every path (MCP, metadata, registration, authorize, token, consent, callback) refuses another host', async () => {
    const port = new URL(signInServer.url).port;
    for (const [method, pathname] of [
      ['POST', '/mcp'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/.well-known/oauth-protected-resource/mcp'],
      ['POST', '/register'],
      ['GET', '/authorize?client_id=x'],
      ['POST', '/token'],
      ['POST', '/oauth/consent'],
      ['GET', '/oauth/wordpress/callback?pending=x'],
    ] as const) {
      for (const host of ['evil.example.com', `evil.example.com:${port}`]) {
        expect(
          (await send(signInServer.url, method, pathname, host, '{}')).status,
          `${method} ${pathname} ${host}`,
        ).toBe(421);
      }
    }
    // Its own address and the --public-url's host are answered.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'mcp.example.org'])
      expect((await send(signInServer.url, 'GET', '/.well-known/oauth-authorization-server', host)).status, host).toBe(
        200,
      );
    expect(signInServer.sessions()).toBe(0);
  });
});
