import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHttpServer } from '../../src/mcp/http.js';
import { makeUser, serveSignIn } from '../helpers/mcp-oauth.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';
import { WpBrowser } from '../helpers/wp-browser.js';

// Issue #33 finding 1, the confused deputy: a stranger registers a client named "Claude" and
// sends an administrator its /authorize link. Our own consent page must come first and name where
// the code goes; nothing reaches the stranger without the administrator pressing Approve there.
const site = testSite();
let server: McpHttpServer;
let admin: { username: string; password: string; id: number };
const base = () => new URL('/', server.url);
const STRANGER = 'http://127.0.0.1:9/stolen';

async function register(metadata: Record<string, unknown>) {
  const res = await fetch(new URL('/register', base()), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', ...metadata }),
  });
  return { status: res.status, body: (await res.json()) as { client_id: string; error?: string } };
}

function authorizeLink(clientId: string, redirect = STRANGER): string {
  const url = new URL('/authorize', base());
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: 'c'.repeat(43),
    code_challenge_method: 'S256',
    state: 'st',
  }))
    url.searchParams.set(k, v);
  return url.href;
}

const claudeAppPasswords = async (prefix = 'Claude →') =>
  (await wp().get<Array<{ name: string }>>(`/wp/v2/users/${admin.id}/application-passwords`)).filter((p) =>
    p.name.startsWith(prefix),
  );

beforeAll(async () => {
  admin = await makeUser('administrator');
  server = await serveSignIn();
});

afterAll(async () => {
  await server?.close();
});

describe("mcp --http: a stranger's client and our consent page", () => {
  it('refuses redirect URIs a code could be caught on (plain http elsewhere, fragments, schemes the browser handles itself); accepts https, loopback and app schemes', async () => {
    for (const uri of ['http://evil.example/cb', 'https://ok.example/cb#frag', 'ws://evil.example/cb', 'file:///tmp/x']) {
      const { status, body } = await register({ client_name: 'Claude', redirect_uris: [uri] });
      expect([status, body.error], uri).toEqual([400, 'invalid_redirect_uri']);
    }
    for (const uri of ['https://ok.example/cb', 'http://[::1]:5/cb', 'http://localhost/cb', 'com.example.app:/cb', 'cursor://anysphere.cursor-retrieval/oauth/callback'])
      expect((await register({ client_name: 'Claude', redirect_uris: [uri] })).status, uri).toBe(201);
  });

  it('an administrator opening the link sees our page naming the host; no code and no password until Approve; forged posts refused', async () => {
    const { body: stranger } = await register({ client_name: 'Claude', redirect_uris: [STRANGER] });
    const browser = new WpBrowser(site.url);
    await browser.logIn(admin.username, admin.password);

    const page = await browser.open(authorizeLink(stranger.client_id));
    recordOutput(page.text);
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.text).toContain('“Claude”');
    expect(page.text).toMatch(/given by the app itself and is not verified/);
    expect(page.text).toContain('After you approve, your browser is sent to 127.0.0.1:9');
    expect(page.text).toMatch(/as you, with your role/);
    expect(page.text).toContain('“Claude → 127.0.0.1:9 (cms-admin MCP)”');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await claudeAppPasswords()).toEqual([]);
    const action = page.action as string;

    // Forged posts: no token; another pending request's token; the stranger's own copy of the
    // form posted without this browser's cookie; a post from another origin.
    const other = await browser.open(authorizeLink(stranger.client_id));
    const attacker = new WpBrowser(site.url);
    const attackersPage = await attacker.open(authorizeLink(stranger.client_id));
    const forged = [
      () => browser.consent(action, { pending: page.fields.pending as string }),
      () => browser.consent(action, { pending: page.fields.pending as string, csrf: other.fields.csrf as string }),
      () => new WpBrowser(site.url).consent(action, attackersPage.fields),
      () =>
        browser.request(action, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
          body: new URLSearchParams({ ...page.fields, choice: 'approve' }).toString(),
        }),
    ];
    for (const post of forged) {
      const res = await post();
      await res.body?.cancel();
      expect(res.status).toBe(403);
      expect(res.headers.get('location')).toBeNull();
    }
    expect(await claudeAppPasswords()).toEqual([]);

    // Approve on our page: on to WordPress, whose page names the host too; the token is single use.
    const approved = await browser.consent(action, page.fields);
    await approved.body?.cancel();
    const wpPage = approved.headers.get('location') as string;
    expect(new URL(wpPage).pathname).toContain('/wp-admin/authorize-application.php');
    expect(new URL(wpPage).searchParams.get('app_name')).toBe('Claude → 127.0.0.1:9 (cms-admin MCP)');
    const replay = await browser.consent(action, page.fields);
    await replay.body?.cancel();
    expect(replay.status).toBe(403);
    const back = await browser.onWordPress(wpPage);
    recordSecret(back.searchParams.get('code') ?? undefined);
    expect(back.origin + back.pathname).toBe(STRANGER);
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(await claudeAppPasswords()).toHaveLength(1);

    // Remembered for this browser and this client: straight to WordPress (which asks again).
    const again = await browser.open(authorizeLink(stranger.client_id));
    expect(again.status).toBe(303);
    expect(again.location).toContain('/wp-admin/authorize-application.php');
    // Not for another client, however it is named.
    const { body: twin } = await register({ client_name: 'Claude', redirect_uris: [STRANGER] });
    expect((await browser.open(authorizeLink(twin.client_id))).status).toBe(200);
  });

  it("consent remembered in a browser is that person's: another WordPress user there is refused, their password deleted, and asked next time", async () => {
    const { body: client } = await register({ client_name: 'Shared desk', redirect_uris: [STRANGER] });
    const browser = new WpBrowser(site.url);
    await browser.logIn(admin.username, admin.password);
    await browser
      .approve(authorizeLink(client.client_id))
      .then((back) => recordSecret(back.searchParams.get('code') ?? undefined));
    const editor = await makeUser('editor');
    await browser.logIn(editor.username, editor.password);
    const skipped = await browser.open(authorizeLink(client.client_id));
    expect(skipped.status).toBe(303);
    const back = await browser.onWordPress(skipped.location as string);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    const editors = await wp().get<Array<{ name: string }>>(`/wp/v2/users/${editor.id}/application-passwords`);
    expect(editors.filter((p) => p.name.startsWith('Shared desk'))).toEqual([]);
    expect((await browser.open(authorizeLink(client.client_id))).status).toBe(200);
  });

  it('Deny goes back to the client with access_denied and makes no application password', async () => {
    const { body: client } = await register({ client_name: 'Claude denied', redirect_uris: [STRANGER] });
    const browser = new WpBrowser(site.url);
    await browser.logIn(admin.username, admin.password);
    const page = await browser.open(authorizeLink(client.client_id));
    const denied = await browser.consent(page.action as string, page.fields, 'deny');
    await denied.body?.cancel();
    const back = new URL(denied.headers.get('location') as string);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st');
    expect(back.searchParams.get('code')).toBeNull();
    expect(await claudeAppPasswords('Claude denied')).toEqual([]);
  });
});
