import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.js';
import { appPasswordsOf, authorizeLink, makeUser, registerClient, serveSignIn } from '../helpers/mcp-oauth.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testSite } from '../helpers/site.js';
import { WpBrowser } from '../helpers/wp-browser.js';

// Issue #48 finding 3: the application password's name kept the first 80 characters of the
// redirect's host, so a long host that starts like Anthropic's showed on WordPress's page, and
// in the person's profile, without the "evil.example" it ends with. The host is shown whole.
const site = testSite();
const HOST = `claude.ai.connectors.mcp-oauth.anthropic.com.session-${'7f3e9c2a'.repeat(7)}.evil.example`;
const REDIRECT = `https://${HOST}/cb`;
let server: McpHttpServer;
let admin: { username: string; password: string; id: number };

beforeAll(async () => {
  admin = await makeUser('administrator');
  server = await serveSignIn();
});
afterAll(async () => {
  await server?.close();
});

describe('mcp --http: the redirect host in the name WordPress shows', () => {
  it('a long host is shown whole on our page, on WordPress\'s page and in the profile; a long client name is what gets cut', async () => {
    expect(HOST.length).toBeGreaterThan(120);
    const longName = `Claude ${'for work '.repeat(20)}`.trim();
    const { body: client } = await registerClient(server.url, { client_name: longName, redirect_uris: [REDIRECT] });
    const browser = new WpBrowser(site.url);
    await browser.logIn(admin.username, admin.password);

    const page = await browser.open(authorizeLink(server.url, client.client_id, REDIRECT));
    expect(page.text).toContain(`sent to the website ${HOST}`);
    const approved = await browser.consent(page.action as string, page.fields);
    await approved.body?.cancel();
    const wpLink = approved.headers.get('location') as string;
    const expected = `${longName.slice(0, 59).trimEnd()}… → ${HOST} (cms-admin MCP)`;
    expect(new URL(wpLink).searchParams.get('app_name')).toBe(expected);

    // WordPress's own page, as the person reads it.
    const wpPage = await browser.request(wpLink);
    const html = await wpPage.text();
    recordOutput(html);
    expect(html).toContain(`<strong>${expected}</strong>`);

    const back = await browser.onWordPress(wpLink);
    recordSecret(back.searchParams.get('code') ?? undefined);
    expect(back.host).toBe(HOST);
    // Read back from WordPress: the profile's application password keeps the whole host.
    const made = await appPasswordsOf(admin.id, 'Claude for work');
    expect(made.map((p) => p.name)).toEqual([expected]);
    expect(made[0]?.name.endsWith('.evil.example (cms-admin MCP)')).toBe(true);
  });

  it('refuses a redirect host (or app scheme) too long to be shown whole: over 253 characters, a DNS name\'s limit', async () => {
    const labels = Array.from({ length: 5 }, (_, i) => `${i}${'a'.repeat(50)}`).join('.');
    for (const uri of [`https://claude.ai.${labels}.evil.example/cb`, `com.${labels}.app:/cb`]) {
      const { status, body } = await registerClient(server.url, { client_name: 'Claude', redirect_uris: [uri] });
      expect([status, body.error], uri).toEqual([400, 'invalid_redirect_uri']);
      expect(body.error_description).toMatch(/at most 253 .*shown it whole/);
    }
    const fits = `https://${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(53)}.example/cb`;
    expect(new URL(fits).hostname.length).toBe(253);
    expect((await registerClient(server.url, { client_name: 'Claude', redirect_uris: [fits] })).status).toBe(201);
  });
});
