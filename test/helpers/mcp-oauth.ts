import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { recordSecret, recordSecretsOf } from './output-log.js';
import { testSite, unique, wp } from './site.js';
import { MemoryOAuthClient, WpBrowser } from './wp-browser.js';

/** A WordPress user with a known login password (for the scripted browser). */
export async function makeUser(role: string): Promise<{ username: string; password: string; id: number }> {
  const username = unique(role)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const password = `${role}-${process.pid}-pass-${Date.now()}!`;
  recordSecretsOf({ password });
  const user = await wp().post<{ id: number }>('/wp/v2/users', {
    username,
    password,
    email: `${username}@example.com`,
    roles: [role],
  });
  return { username, password, id: user.id };
}

/** The browser of the latest `authorize` (its `appPassword` is what WordPress handed our server). */
export let lastBrowser: WpBrowser | undefined;

/** Registers, is sent to WordPress, the person approves, the client finishes with the code (tokens saved). */
export async function authorize(
  url: string,
  who: { username: string; password: string },
  name = 'OAuth test client',
  /** The WordPress the person logs in to (default the test site; a network's main site in network tests). */
  siteUrl = testSite().url,
) {
  const oauth = new MemoryOAuthClient(name);
  const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth });
  await expect(new Client({ name, version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
  expect(oauth.authorizeUrl).toBeDefined();
  const browser = new WpBrowser(siteUrl);
  await browser.logIn(who.username, who.password);
  const back = await browser.approve((oauth.authorizeUrl as URL).href);
  const code = back.searchParams.get('code');
  recordSecret(code ?? undefined);
  expect(code, back.searchParams.get('error_description') ?? '').toBeTruthy();
  await first.finishAuth(code as string);
  lastBrowser = browser;
  return oauth;
}

/** `authorize`, then an MCP client connected with the tokens. */
export async function signIn(url: string, who: { username: string; password: string }, name = 'OAuth test client', siteUrl?: string) {
  const oauth = await authorize(url, who, name, siteUrl);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth }));
  return { client, oauth };
}

/** A raw MCP request with `headers` (no session): its status and WWW-Authenticate. */
export async function rawPost(url: string, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await res.body?.cancel();
  return { status: res.status, challenge: res.headers.get('www-authenticate') ?? '' };
}

/** POST /register (no sign-in, as anyone can): the status and the answer. */
export async function registerClient(serverUrl: string, metadata: Record<string, unknown>) {
  const res = await fetch(new URL('/register', serverUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', ...metadata }),
  });
  return { status: res.status, body: (await res.json()) as { client_id: string; error?: string; error_description?: string } };
}

/** Our /authorize link for `clientId` (PKCE S256, state `st`); `params` replace or, as undefined, remove fields. */
export function authorizeLink(serverUrl: string, clientId: string, redirectUri: string, params: Record<string, string | undefined> = {}): string {
  const url = new URL('/authorize', serverUrl);
  const fields = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: 'c'.repeat(43),
    code_challenge_method: 'S256',
    state: 'st',
    ...params,
  };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** The user's application passwords whose name starts with `prefix`, read back from WordPress. */
export async function appPasswordsOf(userId: number, prefix: string) {
  const all = await wp().get<Array<{ name: string; uuid: string }>>(`/wp/v2/users/${userId}/application-passwords`);
  return all.filter((p) => p.name.startsWith(prefix));
}

/** `mcp --http` with sign-in on the test site, on a free port, its state in a new temp folder. */
export function serveSignIn(): Promise<McpHttpServer> {
  const site = testSite();
  return serveMcpHttp(
    createContext(site),
    {},
    {},
    {
      port: 0,
      wordpress: {
        siteUrl: site.url,
        stateDir: mkdtempSync(path.join(tmpdir(), 'cms-signin-')),
        contextFor: (login) => createContext({ url: site.url, ...login }),
      },
    },
  );
}
