import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.js';
import { authorizeLink, makeUser, registerClient, serveSignIn } from '../helpers/mcp-oauth.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testSite } from '../helpers/site.js';
import { WpBrowser } from '../helpers/wp-browser.js';

// Issue #48 finding 5: a client registered a moment ago, with any https or app-scheme redirect,
// asked /authorize without code_challenge and got a 302 straight to that URI: no sign-in, no
// page, this server's address lending its name to a link to anywhere. Before a person has
// consented to a client (in this browser), /authorize's errors are our own page (RFC 9700 §4.11).
const site = testSite();
const EVIL = 'https://evil.example/cb';
const APP = 'com.evil.app:/cb';
let server: McpHttpServer;

beforeAll(async () => {
  server = await serveSignIn();
});
afterAll(async () => {
  await server?.close();
});

describe('mcp --http: /authorize is no open redirector', () => {
  it('a fresh client asked without PKCE, with a wrong response_type or another resource: a 400 page naming the problem, no redirect (GET and POST)', async () => {
    const { body: client } = await registerClient(server.url, { client_name: 'Claude', redirect_uris: [EVIL, APP] });
    const cases: Array<[string, Record<string, string | undefined>, string]> = [
      [EVIL, { code_challenge: undefined, code_challenge_method: undefined }, 'code_challenge is missing'],
      [APP, { code_challenge: undefined }, 'code_challenge is missing'],
      [EVIL, { response_type: 'token' }, 'response_type must be "code"'],
      [EVIL, { resource: 'https://elsewhere.example/mcp' }, 'the resource https://elsewhere.example/mcp is not served here'],
    ];
    const browser = new WpBrowser(site.url);
    for (const [redirect, params, said] of cases) {
      const link = authorizeLink(server.url, client.client_id, redirect, params);
      const page = await browser.open(link);
      recordOutput(page.text);
      expect([page.status, page.location], link).toEqual([400, undefined]);
      expect(page.text).toContain(`The app's request cannot go on: ${said}`);
      const words = page.text.replace(/\( /g, '(').replace(/ \)/g, ')');
      expect(words).toContain(`not sent on to the app's address (${redirect === EVIL ? 'evil.example' : 'com.evil.app:'})`);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      // The same as a form POST (the SDK's /authorize takes both).
      const url = new URL(link);
      const posted = await browser.request(`${url.origin}${url.pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: url.searchParams.toString(),
      });
      expect([posted.status, posted.headers.get('location')], `POST ${link}`).toEqual([400, null]);
      expect((await posted.text()).replaceAll('&quot;', '"')).toContain(said);
    }
  });

  it('once a person has consented to the client in a browser, that browser gets the error back at the client (as OAuth says); another browser still gets the page', async () => {
    const { body: client } = await registerClient(server.url, { client_name: 'Known app', redirect_uris: [EVIL] });
    const admin = await makeUser('administrator');
    const browser = new WpBrowser(site.url);
    await browser.logIn(admin.username, admin.password);
    const done = await browser.approve(authorizeLink(server.url, client.client_id, EVIL));
    recordSecret(done.searchParams.get('code') ?? undefined);
    expect(done.searchParams.get('code')).toBeTruthy();

    const noPkce = authorizeLink(server.url, client.client_id, EVIL, { code_challenge: undefined });
    const back = await browser.open(noPkce);
    expect(back.status).toBe(302);
    const location = new URL(back.location as string);
    expect(location.origin + location.pathname).toBe(EVIL);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    const stranger = await new WpBrowser(site.url).open(noPkce);
    expect([stranger.status, stranger.location]).toEqual([400, undefined]);
  });
});
