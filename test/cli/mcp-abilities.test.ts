import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abilityTools } from '../../src/call/index.js';
import { createContext } from '../../src/config.js';
import { type McpHttpServer, serveMcpHttp } from '../../src/mcp/http.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { testSite, unique, wordPressAtLeast } from '../helpers/site.js';
import { ABILITY, productsTitled, removeProducts } from '../wordpress/abilities/helpers.js';

/**
 * Issue #62 over MCP, both revisions: the abilities toolset served like any other (enable-toolset,
 * then notifications/tools/list_changed), `--abilities` listing chosen abilities as tools of their
 * own; a read-only ability runs with no elicitation, every other is asked through elicitation
 * (2026-07-28: an input_required round trip): declined, nothing runs; accepted, it runs once.
 */
const PREFIX = 'Mcp ability product';
const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name);
const text = (result: object) => {
  const body = ((result as { content: Array<{ text: string }> }).content)[0]!.text;
  recordOutput(body);
  return JSON.parse(body);
};

describe.skipIf(!wordPressAtLeast('6.9'))('site abilities over MCP', () => {
  afterAll(() => removeProducts(PREFIX));

  describe('2025-11-25 over stdio: cms-admin mcp --abilities', () => {
    let client: Client;
    let answer: 'accept' | 'decline' = 'decline';
    const asked: string[] = [];
    let onChange: () => void = () => {};
    beforeAll(async () => {
      const site = testSite();
      client = new Client({ name: 'abilities-2025', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(String(request.params.message));
        return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
      });
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => onChange());
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [...cliArgs(), 'mcp', '--toolsets', 'taxonomy', '--abilities', `${ABILITY.create},${ABILITY.query}`],
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '', CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword },
        }),
      );
    });
    afterAll(() => client.close());

    it('lists the chosen abilities as tools of their own, with their own params and what the site says of them', async () => {
      const tools = (await client.listTools()).tools;
      expect(names(tools)).toEqual(expect.arrayContaining(['cms-sandbox_product-create', 'cms-sandbox_products-query']));
      expect(names(tools)).not.toContain('run-ability');
      const create = tools.find((t) => t.name === 'cms-sandbox_product-create')!;
      expect(create.inputSchema).toMatchObject({ required: ['title'], properties: { title: { type: 'string' }, status: { enum: ['draft', 'publish'] }, dry_run: { type: 'boolean' } } });
      expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect(tools.find((t) => t.name === 'cms-sandbox_products-query')!.annotations).toMatchObject({ readOnlyHint: true });
    });

    it('enable-toolset adds the abilities toolset and tells the client the list changed', async () => {
      const notified = new Promise<void>((resolve) => {
        onChange = resolve;
      });
      expect(text(await client.callTool({ name: 'enable-toolset', arguments: { toolset: 'abilities' } }))).toMatchObject({ enabled: 'abilities' });
      await notified;
      expect(names((await client.listTools()).tools)).toEqual(expect.arrayContaining(['find-abilities', 'describe-ability', 'run-ability']));
    });

    it('a read runs with no elicitation; a write is asked: declined nothing, accepted once', async () => {
      asked.length = 0;
      const read = await client.callTool({ name: 'run-ability', arguments: { name: ABILITY.query, input: '{"search":"Mug"}' } });
      expect(read.structuredContent).toMatchObject({ ability: ABILITY.query, result: { products: [{ title: 'Ceramic Mug' }] } });
      expect(asked).toEqual([]);
      const title = unique(PREFIX);
      answer = 'decline';
      expect(text(await client.callTool({ name: 'cms-sandbox_product-create', arguments: { title } }))).toMatchObject({ error: { code: 'rejected_by_user' } });
      expect(asked[0]).toMatch(/"Create a product" \(cms-sandbox\/product-create\).*cannot preview what it will change nor undo it/);
      expect(await productsTitled(title)).toEqual([]);
      answer = 'accept';
      const made = await client.callTool({ name: 'run-ability', arguments: { name: ABILITY.create, input: JSON.stringify({ title }) } });
      expect(made.isError).toBe(false);
      expect(asked).toHaveLength(2);
      expect(await productsTitled(title)).toHaveLength(1);
      // An input the ability refuses: an isError result, nothing asked.
      const bad = await client.callTool({ name: 'cms-sandbox_product-create', arguments: { title: '' } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatchObject({ error: { code: 'invalid_params' } });
      expect(asked).toHaveLength(2);
    });
  });

  describe('2026-07-28 over Streamable HTTP', () => {
    const token = `abilities-modern-${process.pid}-${'t'.repeat(20)}`;
    let server: McpHttpServer;
    beforeAll(async () => {
      recordSecret(token);
      const context = createContext(testSite());
      const siteTools = await abilityTools([context], ['cms-sandbox/product-create']);
      server = await serveMcpHttp(context, { toolsets: ['taxonomy'] }, { siteTools }, { port: 0, token });
    });
    afterAll(() => server?.close());

    async function connect(answer: 'accept' | 'decline', asked: string[]): Promise<ModernClient> {
      const client = new ModernClient({ name: 'abilities-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } } as never);
      client.setRequestHandler('elicitation/create', async (request: { params: unknown }) => {
        asked.push(String((request.params as { message: string }).message));
        return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return client;
    }

    it('lists the chosen ability; enable-toolset notifies on the listen stream; a write asks through input_required', async () => {
      const asked: string[] = [];
      const client = await connect('decline', asked);
      try {
        let onChange: () => void = () => {};
        client.setNotificationHandler('notifications/tools/list_changed', async () => onChange());
        const subscription = await client.listen({ toolsListChanged: true });
        expect(names((await client.listTools()).tools)).toContain('cms-sandbox_product-create');
        const notified = new Promise<void>((resolve) => {
          onChange = resolve;
        });
        await client.callTool({ name: 'enable-toolset', arguments: { toolset: 'abilities' } });
        await notified;
        expect(names((await client.listTools()).tools)).toContain('run-ability');
        const title = unique(PREFIX);
        const declined = await client.callTool({ name: 'run-ability', arguments: { name: ABILITY.create, input: JSON.stringify({ title }) } });
        expect(text(declined)).toMatchObject({ error: { code: 'rejected_by_user' } });
        expect(asked[0]).toContain('cms-sandbox/product-create');
        expect(await productsTitled(title)).toEqual([]);
        await subscription.close();
      } finally {
        await client.close();
      }
      const yes: string[] = [];
      const approving = await connect('accept', yes);
      try {
        const title = unique(PREFIX);
        const made = await approving.callTool({ name: 'cms-sandbox_product-create', arguments: { title } });
        expect(made.isError).toBe(false);
        expect(yes).toHaveLength(1);
        expect(await productsTitled(title)).toHaveLength(1);
      } finally {
        await approving.close();
      }
    });
  });
});
