import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.js';
import { appPasswordsOf, authorizeLink, makeUser, registerClient, serveSignIn } from '../helpers/mcp-oauth.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testSite } from '../helpers/site.js';
import { WpBrowser } from '../helpers/wp-browser.js';

// Issue #48 finding 2: an attacker registers "Claude" with a redirect of their own, approves on
// our consent page in their own browser, and forwards the resulting link to WordPress's
// authorize-application.php to an administrator, who approves on WordPress's page alone. The
// approval must come back to the browser that consented: the administrator's browser gets our
// consent page for that request, never a code; WordPress keeps no password for it.
const site = testSite();
const EVIL = 'https://evil.example/cb';
let server: McpHttpServer;
let admin: { username: string; password: string; id: number };
const link = (clientId: string, params: Record<string, string | undefined> = {}) =>
  authorizeLink(server.url, clientId, EVIL, params);

/** A browser signed in to WordPress as `who`. */
async function browserOf(who: { username: string; password: string }): Promise<WpBrowser> {
  const browser = new WpBrowser(site.url);
  await browser.logIn(who.username, who.password);
  return browser;
}

/** In `browser`: our consent page, Approve; the link to WordPress it gives. */
async function approveOnOurPage(browser: WpBrowser, authorizeUrl: string): Promise<string> {
  const page = await browser.open(authorizeUrl);
  expect(page.status).toBe(200);
  const approved = await browser.consent(page.action as string, page.fields);
  await approved.body?.cancel();
  // What binds the approval to this browser: sent back with WordPress's redirect (Lax), to the callback only.
  const cookie = approved.headers.getSetCookie().find((line) => line.startsWith('cms_admin_signin='));
  expect(cookie).toMatch(/; Max-Age=600; Path=\/oauth\/wordpress\/callback; .*HttpOnly; SameSite=Lax/);
  const wpLink = approved.headers.get('location') ?? '';
  expect(wpLink).toContain('/wp-admin/authorize-application.php');
  return wpLink;
}

beforeAll(async () => {
  admin = await makeUser('administrator');
  server = await serveSignIn();
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('mcp --http: a link to WordPress works only in the browser that approved on our page', () => {
  it("forwarded to an administrator who approves on WordPress's page: our consent page in their browser, no code; the password WordPress made is deleted; the link is used up", async () => {
    const { body: claude } = await registerClient(server.url, { client_name: 'Claude', redirect_uris: [EVIL] });
    const attacker = new WpBrowser(site.url); // not signed in anywhere: our page needs no sign-in
    const forwarded = await approveOnOurPage(attacker, link(claude.client_id));

    const victim = await browserOf(admin);
    const back = await victim.onWordPress(forwarded);
    recordOutput(back.href);
    expect(back.origin + back.pathname).toBe(new URL('/authorize', server.url).href);
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('client_id')).toBe(claude.client_id);
    expect(back.searchParams.get('redirect_uri')).toBe(EVIL);
    // What the administrator sees there: our page, naming where a code would go.
    const page = await victim.open(back.href);
    expect(page.status).toBe(200);
    expect(page.text).toContain('After you approve, your browser is sent to the website evil.example');
    // WordPress read back: the application password its page just made is gone.
    expect(await appPasswordsOf(admin.id, 'Claude →')).toEqual([]);

    // Used once: the same link approved again (by anyone) is unknown; nothing is left in WordPress either.
    const again = await victim.throughWordPress(forwarded);
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
    expect(await again.text()).toMatch(/already used: start again/);
    expect(await appPasswordsOf(admin.id, 'Claude →')).toEqual([]);
  });

  it("the remembered-consent path too: the attacker's own remembered consent, forwarded, gets the administrator our page", async () => {
    const { body: claude } = await registerClient(server.url, { client_name: 'Claude again', redirect_uris: [EVIL] });
    const subscriber = await makeUser('subscriber');
    const attacker = await browserOf(subscriber);
    // The attacker signs in once with their own account: this browser now skips our page for the client.
    const own = await attacker.onWordPress(await approveOnOurPage(attacker, link(claude.client_id)));
    recordSecret(own.searchParams.get('code') ?? undefined);
    expect(own.searchParams.get('code')).toBeTruthy();
    const skipped = await attacker.open(link(claude.client_id));
    expect(skipped.status).toBe(303);
    expect(skipped.location).toContain('/wp-admin/authorize-application.php');

    const victim = await browserOf(admin);
    const back = await victim.onWordPress(skipped.location as string);
    expect(back.origin + back.pathname).toBe(new URL('/authorize', server.url).href);
    expect(back.searchParams.get('code')).toBeNull();
    expect((await victim.open(back.href)).status).toBe(200);
    expect(await appPasswordsOf(admin.id, 'Claude again →')).toEqual([]);

    // Rejected on WordPress's page in the other browser: said so, nothing sent anywhere.
    const rejected = await victim.throughWordPress((await attacker.open(link(claude.client_id))).location as string, 'reject');
    expect([rejected.status, rejected.headers.get('location')]).toEqual([200, null]);
    expect(await rejected.text()).toMatch(/rejected the connection on WordPress: nothing was connected/);
  });

  it('in the browser that approved, the sign-in goes through (a code); a link older than 10 minutes does not, and leaves no password', async () => {
    const { body: client } = await registerClient(server.url, { client_name: 'Own app', redirect_uris: [EVIL] });
    const browser = await browserOf(admin);
    const done = await browser.onWordPress(await approveOnOurPage(browser, link(client.client_id)));
    recordSecret(done.searchParams.get('code') ?? undefined);
    expect(done.origin + done.pathname).toBe(EVIL);
    expect(done.searchParams.get('code')).toBeTruthy();
    expect(await appPasswordsOf(admin.id, 'Own app →')).toHaveLength(1);

    const { body: late } = await registerClient(server.url, { client_name: 'Late app', redirect_uris: [EVIL] });
    const lateBrowser = await browserOf(admin);
    const wpLink = await approveOnOurPage(lateBrowser, link(late.client_id));
    // Only our server's clock moves (WordPress's page and its nonce do not expire in 10 minutes).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1000);
    const expired = await lateBrowser.throughWordPress(wpLink);
    expect(expired.status).toBe(400);
    expect(expired.headers.get('location')).toBeNull();
    expect(await expired.text()).toMatch(/expired: start again/);
    expect(await appPasswordsOf(admin.id, 'Late app →')).toEqual([]);
  });
});
