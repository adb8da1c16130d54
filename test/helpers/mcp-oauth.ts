import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
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
