import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, it } from 'vitest';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { testContext, wp } from '../helpers/site.js';

const token = 'sessions-test-token-0123456789';
let server: McpHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'load', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

it('50 concurrent sessions × 4 calls are all answered; ended sessions free their server', async () => {
  server = await serveMcpHttp(testContext(), {}, {}, { port: 0, token });
  const total = await wp().count('/wp/v2/tags', { hide_empty: false });
  const answers = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const { client, transport } = await connect(server!.url);
      const totals: number[] = [];
      for (let i = 0; i < 4; i++) {
        const result = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
        totals.push((result.structuredContent as { total: number }).total);
      }
      await transport.terminateSession();
      await client.close();
      return totals;
    }),
  );
  expect(answers.flat()).toEqual(Array(200).fill(total));
  await until(() => server!.sessions() === 0, 'every session to close');
});

it('a session its client left without ending is closed once idle', async () => {
  // Idle for 2 s: long enough that a loaded machine does not close it before the first check.
  server = await serveMcpHttp(testContext(), {}, {}, { port: 0, token, idleMs: 2_000 });
  const { client } = await connect(server.url);
  await client.listTools();
  expect(server.sessions()).toBe(1);
  await until(() => server!.sessions() === 0, 'the idle session to close');
});
