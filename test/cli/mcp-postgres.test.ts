
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type McpHttpChild, startMcpHttp } from '../helpers/mcp-http-cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { startPostgres } from '../helpers/postgres.js';
import { testSite, wp } from '../helpers/site.js';
import { newIdentity, newPassword } from '../wordpress/users/helpers.js';

/**
 * Two `mcp --http --store postgres://…` processes on one real PostgreSQL (issue #49, first part
 * of "many replicas"): a 2026-07-28 approval asked by one is answered through the other (the
 * sealing key is the store's), and a state used on one is refused on both (the used states are
 * the store's). Sign-in across replicas: mcp-postgres-signin.test.ts.
 */
const token = `pg-token-${'p'.repeat(24)}-${process.pid}`;
const site = testSite();
let pg: Awaited<ReturnType<typeof startPostgres>>;
const servers: McpHttpChild[] = [];

async function startServer(store: string): Promise<string> {
  const { CMS_STORE: _s, ...rest } = process.env;
  const server = await startMcpHttp(['--port', '0', '--store', store], {
    ...rest,
    CMS_URL: site.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    CMS_MCP_TOKEN: token,
  });
  servers.push(server);
  return server.url;
}

let replicaA = '';
let replicaB = '';

beforeAll(async () => {
  pg = await startPostgres();
  [replicaA, replicaB] = await Promise.all([startServer(pg.url), startServer(pg.url)]);
}, 120_000);

afterAll(async () => {
  for (const { child } of servers) child.kill();
  await Promise.all(servers.map(({ child }) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : undefined)));
  await pg?.stop();
  recordOutput(servers.map((server) => server.stderr()).join(''));
});

async function connect(url: string): Promise<Client> {
  const client = new Client(
    { name: 'replica-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

type Round = { resultType?: string; isError?: boolean; requestState?: string; inputRequests?: Record<string, { params: { message: string } }> };
const call = (client: Client, args: Record<string, unknown>, requestState?: string) =>
  client.callTool(
    {
      name: 'set-user-role',
      arguments: args,
      ...(requestState && { inputResponses: { approve: { action: 'accept', content: {} } }, requestState }),
    } as never,
    { allowInputRequired: true } as never,
  ) as Promise<Round>;

async function rolesOf(id: number): Promise<string[]> {
  return (await wp().get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles;
}

describe('two server processes on one PostgreSQL', () => {
  it('an approval asked on one is answered through the other; its state is then refused on both', async () => {
    const { username, email } = newIdentity('replica');
    const user = await wp().post<{ id: number }>('/wp/v2/users', { username, email, password: newPassword(), roles: ['subscriber'] });
    const [a, b] = await Promise.all([connect(replicaA), connect(replicaB)]);
    try {
      const args = { id: user.id, role: 'editor' };
      const first = await call(a, args);
      expect(first.resultType).toBe('input_required');
      expect(first.inputRequests?.approve?.params.message).toContain(username);
      const done = await call(b, args, first.requestState);
      expect(done.isError).toBe(false);
      expect(await rolesOf(user.id)).toEqual(['editor']);
      await wp().post(`/wp/v2/users/${user.id}`, { roles: ['subscriber'] });
      await expect(call(a, args, first.requestState)).rejects.toThrow(/already used/);
      await expect(call(b, args, first.requestState)).rejects.toThrow(/already used/);
      expect(await rolesOf(user.id)).toEqual(['subscriber']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a --store that is neither embedded nor postgres:// is refused at start', async () => {
    const env = { CMS_URL: site.url, CMS_USERNAME: undefined, CMS_APP_PASSWORD: undefined, CMS_MCP_TOKEN: undefined };
    const bad = await runCli(['mcp', '--http', '--port', '0', '--store', 'mysql://x'], {
      env: { ...env, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_MCP_TOKEN: token },
    });
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toMatch(/--store \(CMS_STORE\) takes embedded or a postgres:\/\//);
  });
});
