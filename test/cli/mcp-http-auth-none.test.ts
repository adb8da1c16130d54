
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type McpHttpChild, startMcpHttp } from '../helpers/mcp-http-cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';

/**
 * `cms-admin mcp --http --auth none` (issue #49): for local tools (the Inspector's UI, the
 * conformance suite) no credentials at all, as the configured account, and only on loopback.
 */
const site = testSite();
const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_MCP_TOKEN: undefined };
let server: McpHttpChild;
let url = '';

beforeAll(async () => {
  const { CMS_MCP_TOKEN: _t, ...rest } = process.env;
  server = await startMcpHttp(['--auth', 'none', '--port', '0'], { ...rest, CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword });
  url = server.url;
});

afterAll(() => {
  server?.child.kill();
  recordOutput(server?.stderr() ?? '');
});

describe('mcp --http --auth none', () => {
  it('serves a 2025-11-25 client and a 2026-07-28 client without any credentials, as the configured account', async () => {
    const total = await wp().count('/wp/v2/tags', { hide_empty: false });
    const legacy = new Client({ name: 'no-auth', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(url)));
    const modern = new ModernClient({ name: 'no-auth', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernTransport(new URL(url)));
    try {
      for (const client of [legacy, modern]) {
        const read = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
        expect(read.isError).toBe(false);
        expect((read.structuredContent as { total: number }).total).toBe(total);
      }
      expect(modern.getProtocolEra()).toBe('modern');
    } finally {
      await legacy.close();
      await modern.close();
    }
  });

  it('still refuses another Host and another Origin (DNS rebinding)', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    expect((await post({ Origin: 'http://evil.example.com' })).status).toBe(403);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    expect(status).toBe(421);
  });

  it.each([
    [['--host', '0.0.0.0'], '0.0.0.0'],
    [['--host', '0.0.0.0', '--public-url', 'https://mcp.example.com'], 'https://mcp.example.com'],
    [['--public-url', 'https://mcp.example.com'], 'https://mcp.example.com'],
  ])('is refused on a non-loopback bind or behind a public address (%j): exit 2, nothing served', async (args, where) => {
    const run = await runCli(['mcp', '--http', '--auth', 'none', '--port', '0', ...args], { env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`Refusing --auth none on ${where}`);
    expect(run.stderr).not.toMatch(/serving MCP/);
  });
});
