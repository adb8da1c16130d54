import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type McpHttpChild, startMcpHttp } from '../helpers/mcp-http-cli.js';
import { appPasswordsOf, authorizeLink, makeUser, rawPost, registerClient } from '../helpers/mcp-oauth.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { fixedPorts } from '../helpers/ports.js';
import { startPostgres } from '../helpers/postgres.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { WpBrowser } from '../helpers/wp-browser.js';

/**
 * Issue #49, "many replicas, one PostgreSQL", sign-in: two `mcp --http --auth wordpress --store
 * postgres://…` processes, each with a --state-dir of its own (nothing may come from there),
 * behind a little load balancer that sends each path to the replica the test names, so one
 * person's sign-in crosses from one to the other at every step; and a rate limit counted by both.
 */
const site = testSite();
let pg: Awaited<ReturnType<typeof startPostgres>>;
const servers: McpHttpChild[] = [];
const stateDirs: string[] = [];
/** Direct addresses of the replicas (http://127.0.0.1:port), by name. */
const replica: Record<string, string> = {};

/** The load balancer: every request goes to the replica `route(path)` names; what went where is logged. */
let lb: { url: string; server: http.Server };
let route: (pathname: string) => string = () => 'A';
const routed: Array<[string, string]> = [];

async function startBalancer(): Promise<void> {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const name = route(pathname);
    routed.push([pathname, name]);
    const target = new URL(replica[name] as string);
    // Host stays the balancer's: the replicas' --public-url.
    const out = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  lb = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function startReplica(name: string, extra: string[] = []): Promise<void> {
  const { CMS_STORE: _s, CMS_MCP_TOKEN: _t, CMS_USERNAME: _u, CMS_APP_PASSWORD: _p, ...rest } = process.env;
  const dir = mkdtempSync(path.join(tmpdir(), `cms-pg-signin-${name}-`));
  stateDirs.push(dir);
  const server = await startMcpHttp(
    ['--port', '0', '--auth', 'wordpress', '--store', pg.url, '--state-dir', dir, '--public-url', lb.url, ...extra],
    { ...rest, CMS_URL: site.url },
  );
  servers.push(server);
  replica[name] = new URL('/', server.url).href.replace(/\/$/, '');
}

beforeAll(async () => {
  pg = await startPostgres({ port: fixedPorts().postgresSignIn });
  await startBalancer();
  await Promise.all([startReplica('A'), startReplica('B')]);
}, 120_000);

afterAll(async () => {
  for (const { child } of servers) child.kill();
  await Promise.all(servers.map(({ child }) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : undefined)));
  lb?.server.closeAllConnections();
  lb?.server.close();
  await pg?.stop();
  recordOutput(servers.map((server) => server.stderr()).join(''));
});

const REDIRECT = 'http://127.0.0.1:1/cb';

async function token(at: string, fields: Record<string, string>) {
  const res = await fetch(`${at}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const body = (await res.json()) as { access_token?: string; refresh_token?: string; error?: string };
  recordSecret(body.access_token);
  recordSecret(body.refresh_token);
  return { status: res.status, body };
}

async function connect(at: string, accessToken: string): Promise<Client> {
  // A 2025-11-25 client that approves what it is asked (elicitation), as a person would.
  const client = new Client({ name: 'replica-signin', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${at}/mcp`), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }),
  );
  return client;
}

/** Shared by the steps below: one person's sign-in, carried from replica to replica. */
const person = { user: { username: '', password: '', id: 0 }, clientId: '', name: '', access: '', refresh: '' };

describe('mcp --http --auth wordpress: two replicas on one PostgreSQL', () => {
  it('a sign-in started on A comes back from WordPress to B; its code is redeemed on A, and refused on B after that', async () => {
    person.user = await makeUser('editor');
    person.name = unique('Replica app');
    const registered = await registerClient(lb.url, { client_name: person.name, redirect_uris: [REDIRECT] });
    expect(registered.status).toBe(201);
    person.clientId = registered.body.client_id;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    // Our /authorize and consent page on A; WordPress's callback (the pending request) on B.
    route = (pathname) => (pathname === '/oauth/wordpress/callback' ? 'B' : 'A');
    const browser = new WpBrowser(site.url);
    await browser.logIn(person.user.username, person.user.password);
    const back = await browser.approve(
      authorizeLink(lb.url, person.clientId, REDIRECT, { code_challenge: challenge, resource: `${lb.url}/mcp` }),
    );
    const code = back.searchParams.get('code');
    recordSecret(code ?? undefined);
    expect(code, back.searchParams.get('error_description') ?? '').toBeTruthy();
    expect(routed.filter(([p]) => p !== '/register')).toEqual([
      ['/authorize', 'A'],
      ['/oauth/consent', 'A'],
      ['/oauth/wordpress/callback', 'B'],
    ]);
    const fields = {
      grant_type: 'authorization_code',
      code: code as string,
      code_verifier: verifier,
      client_id: person.clientId,
      redirect_uri: REDIRECT,
      resource: `${lb.url}/mcp`,
    };
    // Made by B's callback, redeemed on A: the code is the store's.
    const first = await token(replica.A as string, fields);
    expect(first.status, JSON.stringify(first.body.error)).toBe(200);
    person.access = first.body.access_token as string;
    person.refresh = first.body.refresh_token as string;
    // Single use across replicas: B, which made it, refuses it now.
    const again = await token(replica.B as string, fields);
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
    // WordPress made one application password for the grant.
    expect(await appPasswordsOf(person.user.id, person.name)).toHaveLength(1);
  });

  it("B serves A's token: a read, and a write read back from WordPress, undone through A; a refresh on B retires the old refresh token on A; two replicas racing one refresh token: one wins", async () => {
    const client = await connect(replica.B as string, person.access);
    try {
      const tags = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
      expect(tags.isError, JSON.stringify(tags.content)).toBe(false);
      expect((tags.structuredContent as { total: number }).total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
      const name = unique('replica tag');
      const made = await client.callTool({ name: 'create-tag', arguments: { name } });
      expect(made.isError, JSON.stringify(made.content)).toBe(false);
      const found = await wp().get<Array<{ name: string }>>('/wp/v2/tags', { search: name, context: 'edit' });
      expect(found.map((tag) => tag.name)).toEqual([name]);
      // Undone through A: the change B journalled is the store's, and it is this person's.
      const onA = await connect(replica.A as string, person.access);
      try {
        const listed = await onA.callTool({ name: 'list-changes', arguments: { limit: 5 } });
        expect(listed.isError, JSON.stringify(listed.content)).toBe(false);
        const change = (listed.structuredContent as { items: Array<{ change_id: string; tool: string }> }).items.find(
          (item) => item.tool === 'create-tag',
        );
        expect(change, JSON.stringify(listed.structuredContent)).toBeDefined();
        const undone = await onA.callTool({ name: 'undo-change', arguments: { change_id: change?.change_id } });
        expect(undone.isError, JSON.stringify(undone.content)).toBe(false);
      } finally {
        await onA.close();
      }
      expect(await wp().get<unknown[]>('/wp/v2/tags', { search: name, context: 'edit' })).toEqual([]);
    } finally {
      await client.close();
    }
    const refreshed = await token(replica.B as string, { grant_type: 'refresh_token', refresh_token: person.refresh, client_id: person.clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body.error)).toBe(200);
    const old = await token(replica.A as string, { grant_type: 'refresh_token', refresh_token: person.refresh, client_id: person.clientId });
    expect([old.status, old.body.error]).toEqual([400, 'invalid_grant']);
    // The new access token works on A too.
    expect((await rawPost(`${replica.A}/mcp`, { authorization: `Bearer ${refreshed.body.access_token}` })).status).toBe(200);
    // The same refresh token at both replicas at once: the rotation is one conditional update.
    const race = await Promise.all(
      ['A', 'B'].map((name) =>
        token(replica[name] as string, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string, client_id: person.clientId }),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = race.find((r) => r.status === 200) as (typeof race)[number];
    person.access = winner.body.access_token as string;
    person.refresh = winner.body.refresh_token as string;
  });

  it("a revoke on A: B refuses the token on the next request, and the application password is gone from WordPress", async () => {
    expect((await rawPost(`${replica.B}/mcp`, { authorization: `Bearer ${person.access}` })).status).toBe(200);
    const revoked = await fetch(`${replica.A}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: person.access, client_id: person.clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    const after = await rawPost(`${replica.B}/mcp`, { authorization: `Bearer ${person.access}` });
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('invalid_token');
    expect(await appPasswordsOf(person.user.id, person.name)).toEqual([]);
    const refresh = await token(replica.B as string, { grant_type: 'refresh_token', refresh_token: person.refresh, client_id: person.clientId });
    expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
    // Nothing of the sign-in was kept in either replica's --state-dir.
    for (const dir of stateDirs) expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('oauth')) : []).toEqual([]);
  });

  it('--rate-limit is counted across replicas: registrations split between C and D reach the limit together', async () => {
    await Promise.all([startReplica('C', ['--rate-limit', '5/3600']), startReplica('D', ['--rate-limit', '5/3600'])]);
    const statuses: string[] = [];
    let refused: Response | undefined;
    for (const name of ['C', 'D', 'C', 'D', 'C', 'D', 'C']) {
      const res = await fetch(`${replica[name]}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'rate', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
      });
      statuses.push(`${name} ${res.status}`);
      if (res.status === 429) refused ??= res;
      else await res.body?.cancel();
    }
    // Neither saw more than 3 of its own: only the shared count reaches 5.
    expect(statuses).toEqual(['C 201', 'D 201', 'C 201', 'D 201', 'C 201', 'D 429', 'C 429']);
    if (!refused) throw new Error('no registration was refused');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toBe('too_many_requests');
  });

  it('a --rate-limit that is not n or n/seconds, or without --auth wordpress, is refused at start, naming the flag', async () => {
    const env = { CMS_URL: site.url, CMS_USERNAME: undefined, CMS_APP_PASSWORD: undefined, CMS_MCP_TOKEN: undefined, CMS_STORE: undefined };
    for (const bad of ['many', '0', '5/0']) {
      const run = await runCli(['mcp', '--http', '--port', '0', '--auth', 'wordpress', '--store', pg.url, '--rate-limit', bad], { env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--rate-limit takes requests per minute (60) or requests/seconds (600/3600), not "${bad}"`);
    }
    const token = await runCli(['mcp', '--http', '--port', '0', '--auth', 'token', '--rate-limit', '5'], {
      env: { ...env, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_MCP_TOKEN: `rate-token-${'r'.repeat(20)}` },
    });
    expect(token.code, token.stderr).toBe(2);
    expect(token.stderr).toContain('--rate-limit limits the sign-in endpoints: it serves --auth wordpress.');
  });
});
