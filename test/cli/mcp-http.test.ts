import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { selectTools, tools } from '../../src/call/index.js';

// A single site's tools: the network tools are listed only on a multisite network (docs/multisite.md).
const registry = selectTools(tools, {});
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { cliArgs } from '../helpers/cli-bin.js';

// `cms-admin mcp --http` as a user starts it, and the MCP SDK's own HTTP client.
const token = `test-token-${'x'.repeat(24)}-${process.pid}`;
let server: ChildProcess;
let url = '';
let stderr = '';

beforeAll(async () => {
  const site = testSite();
  server = spawn(process.execPath, [...cliArgs(), 'mcp', '--http', '--port', '0', '--toolsets', 'all'], {
    cwd: REPO_ROOT,
    env: { ...process.env, CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_MCP_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr?.on('data', (d) => (stderr += d));
  url = await new Promise<string>((resolve, reject) => {
    const found = () => {
      const m = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(stderr);
      if (m) resolve(m[1] as string);
    };
    server.stderr?.on('data', found);
    server.once('exit', (code) => reject(new Error(`mcp --http exited (${code}): ${stderr}`)));
  });
});

afterAll(() => {
  server.kill();
  recordOutput(stderr);
});

async function connect(headers: Record<string, string> = { Authorization: `Bearer ${token}` }): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe('cms-admin mcp --http', () => {
  it('lists every tool with its outputSchema, answers with structuredContent, writes (read back)', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(registry.length);
      expect(tools.every((t) => t.outputSchema)).toBe(true);
      const listed = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
      expect(listed.isError).toBe(false);
      expect((listed.structuredContent as { total: number }).total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
      const name = unique('Over HTTP');
      const created = await client.callTool({ name: 'create-tag', arguments: { name } });
      expect(created.isError).toBe(false);
      const onSite = await wp().get<Array<{ name: string }>>('/wp/v2/tags', { search: name });
      expect(onSite.map((t) => t.name)).toEqual([name]);
      const bad = await client.callTool({ name: 'delete-tag', arguments: {} });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('invalid_params');
      // A slug where the id goes is looked up (#52.1): one no tag has is refused, naming it.
      const unknown = await client.callTool({ name: 'delete-tag', arguments: { id: unique('no-such-tag') } });
      expect(unknown.isError).toBe(true);
      expect(JSON.stringify(unknown.content)).toContain('name_not_found');
      expect(await wp().get<Array<{ name: string }>>('/wp/v2/tags', { search: name })).toHaveLength(1);
      // A tool the server does not list: a JSON-RPC error over HTTP too (issue #37 finding 1).
      await expect(client.callTool({ name: 'delete-tags', arguments: { id: 1 } })).rejects.toMatchObject({
        code: -32602,
        data: { code: 'unknown_tool', closest: expect.arrayContaining(['delete-tag']) },
      });
    } finally {
      await client.close();
    }
  });

  it('a call that needs approval is refused for a client without elicitation; nothing written', async () => {
    const client = await connect();
    try {
      const username = unique('httpadmin').toLowerCase().replace(/[^a-z0-9]/g, '');
      const refused = await client.callTool({
        name: 'create-user',
        arguments: { username, email: `${username}@example.com`, role: 'administrator', password: `Http-admin-${process.pid}-pass!` },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('approval_unavailable');
      expect(await wp().get<unknown[]>('/wp/v2/users', { search: username, context: 'edit' })).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it.each(['accept', 'decline'] as const)(
    'a client with elicitation is asked over HTTP, with the summary; %s decides (read back)',
    async (action) => {
      const client = new Client({ name: 'http-elicit', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(String(request.params.message));
        return { action };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      try {
        const username = unique(`http${action}`).toLowerCase().replace(/[^a-z0-9]/g, '');
        const result = await client.callTool({
          name: 'create-user',
          arguments: { username, email: `${username}@example.com`, role: 'administrator', password: `Http-admin-${process.pid}-pass!` },
        });
        expect(asked).toHaveLength(1);
        expect(asked[0]).toContain(`create the user ${username}`);
        expect(asked[0]).toMatch(/role administrator \(manage_options/);
        const onSite = await wp().get<Array<{ roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
        if (action === 'accept') {
          expect(result.isError).toBe(false);
          expect(onSite.map((u) => u.roles)).toEqual([['administrator']]);
        } else {
          expect(result.isError).toBe(true);
          expect(JSON.stringify(result.content)).toContain('rejected_by_user');
          expect(onSite).toEqual([]);
        }
      } finally {
        await client.close();
      }
    },
  );

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const post = (headers: Record<string, string>, body: string = JSON.stringify(initialize)) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });

  it('refuses a request without the token, or with another, with 401 and WWW-Authenticate', async () => {
    for (const headers of [{}, { Authorization: "Bearer not-the-token-at-all" }] as Array<Record<string, string>>) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      // RFC 6750 §3.1: an error code only when a token was sent (issue #37 finding 3).
      expect(res.headers.get('www-authenticate')?.includes('error="invalid_token"')).toBe('Authorization' in headers);
    }
    await expect(connect({ Authorization: 'Bearer wrong-token-wrong-token' })).rejects.toThrow();
  });

  it('refuses another Origin (DNS rebinding) and an oversized body', async () => {
    const evil = await post({ Authorization: `Bearer ${token}`, Origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    const huge = await post({ Authorization: `Bearer ${token}` }, JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    const own = await post({ Authorization: `Bearer ${token}`, Origin: new URL(url).origin });
    expect(own.status).toBe(200);
  });

  it('refuses plain HTTP on a non-loopback address before binding it (exit 2, names --public-url https://…)', async () => {
    const site = testSite();
    const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_MCP_TOKEN: token };
    for (const args of [['--host', '0.0.0.0'], ['--host', '0.0.0.0', '--public-url', 'http://mcp.example.com']]) {
      const run = await runCli(['mcp', '--http', '--port', '0', ...args], { env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/Refusing to serve plain HTTP on 0\.0\.0\.0.*--public-url https:/s);
      expect(run.stderr).not.toMatch(/serving MCP/);
    }
  });
});
