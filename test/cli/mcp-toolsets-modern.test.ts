import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testContext, wp } from '../helpers/site.js';

/**
 * Toolsets over MCP 2026-07-28 and Streamable HTTP (issues #49, #51): the server is stateless (a
 * fresh server per request), so enable-toolset's notifications/tools/list_changed reaches the
 * client on its subscriptions/listen stream, which the SDK's handler holds, not on the call's
 * own response. The conformance suite cannot show it (it mutates the list with its own fixture
 * tool, test_trigger_tool_change): this test does, with our tool.
 */
const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name);
const token = `toolsets-modern-${process.pid}-${'t'.repeat(20)}`;
let server: McpHttpServer;

beforeAll(async () => {
  recordSecret(token);
  server = await serveMcpHttp(testContext(), { toolsets: ['taxonomy'] }, {}, { port: 0, token });
});
afterAll(() => server?.close());

async function connect(): Promise<Client> {
  const client = new Client({ name: 'toolsets-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

describe('enable-toolset over MCP 2026-07-28 (Streamable HTTP)', () => {
  it('sends notifications/tools/list_changed on the open subscriptions/listen stream; the new tools are listed and answer', async () => {
    const client = await connect();
    try {
      expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      let changed = 0;
      let onChange: () => void = () => {};
      client.setNotificationHandler('notifications/tools/list_changed', async () => {
        changed += 1;
        onChange();
      });
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      expect(names((await client.listTools()).tools)).not.toContain('list-users');

      const notified = new Promise<void>((resolve) => {
        onChange = resolve;
      });
      const enabled = await client.callTool({ name: 'enable-toolset', arguments: { toolset: 'users' } });
      const text = (enabled.content as Array<{ text: string }>)[0]!.text;
      recordOutput(text);
      expect(enabled.isError).toBe(false);
      expect(JSON.parse(text)).toMatchObject({ enabled: 'users' });
      expect(enabled.structuredContent).toEqual(JSON.parse(text));
      await notified;
      expect(changed).toBe(1);

      const after = (await client.listTools()).tools;
      expect(names(after)).toContain('list-users');
      const listed = await client.callTool({ name: 'list-users', arguments: { limit: 100 } });
      expect(listed.isError).toBe(false);
      const total = await wp().count('/wp/v2/users', { context: 'edit' });
      expect((listed.structuredContent as { total: number }).total).toBe(total);
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});
