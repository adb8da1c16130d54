import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/index.js';
import { TOOLSET_NAMES } from '../../src/call/index.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { testContext, testSite } from '../helpers/site.js';
import { expectFirstUsersPage } from '../helpers/users-page.js';

/**
 * Toolsets over MCP (issue #51): `mcp --toolsets taxonomy` lists the taxonomy tools and
 * enable-toolset; its call adds the toolset, the client is sent notifications/tools/list_changed,
 * and the new tools are listed and callable on the site.
 */
const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name);

describe('cms-admin mcp --toolsets over stdio', () => {
  let client: Client;
  let changed = 0;
  let onChange: () => void = () => {};
  beforeAll(async () => {
    const site = testSite();
    client = new Client({ name: 'test', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed += 1;
      onChange();
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        // Every toolset but users and changes, whatever the others hold.
        args: [...cliArgs(), 'mcp', '--toolsets', TOOLSET_NAMES.filter((n) => n !== 'users' && n !== 'changes').join(',')],
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword },
      }),
    );
  });
  afterAll(() => client.close());

  it('declares tools.listChanged; enable-toolset adds the users toolset, the list changes, list-users answers from the site', async () => {
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const before = (await client.listTools()).tools;
    expect(names(before)).toContain('get-cms-tags');
    expect(names(before)).not.toContain('list-users');
    const enable = before.find((tool) => tool.name === 'enable-toolset')!;
    expect(enable.description).toBe(
      "Adds a toolset. Not enabled: users (accounts, passwords, sessions); changes (list and undo changes).",
    );
    expect(enable.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    // Not listed yet: the protocol's error, naming enable-toolset.
    await expect(client.callTool({ name: 'list-users', arguments: {} })).rejects.toThrow(
      /in the toolset users, not enabled\. Call enable-toolset with \{"toolset": "users"\} first/,
    );

    const notified = new Promise<void>((resolve) => {
      onChange = resolve;
    });
    const enabled = await client.callTool({ name: 'enable-toolset', arguments: { toolset: 'users' } });
    expect(enabled.isError).toBe(false);
    const answer = JSON.parse((enabled.content as Array<{ text: string }>)[0]!.text);
    expect(answer).toMatchObject({ enabled: 'users' });
    expect(answer.toolsets).toEqual(expect.arrayContaining(['taxonomy', 'users']));
    expect(answer.tools).toContain('list-users');
    // Structured too (the SDK's client checks it against the listed outputSchema).
    expect(enable.outputSchema?.type).toBe('object');
    expect(enabled.structuredContent).toEqual(answer);
    await notified;
    expect(changed).toBe(1);

    const after = (await client.listTools()).tools;
    expect(names(after)).toContain('list-users');
    expect(after.find((tool) => tool.name === 'enable-toolset')!.description).toBe(
      "Adds a toolset. Not enabled: changes (list and undo changes).",
    );
    const listed = await client.callTool({ name: 'list-users', arguments: { limit: 100 } });
    expect(listed.isError).toBe(false);
    await expectFirstUsersPage(listed.structuredContent as Parameters<typeof expectFirstUsersPage>[0]);
  });

  it('a name that is no toolset is an isError result naming the ones there are', async () => {
    const result = await client.callTool({ name: 'enable-toolset', arguments: { toolset: 'tags' } });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text).error).toEqual({
      code: 'invalid_params',
      message: 'enable-toolset takes {"toolset": name}; there is no toolset "tags".',
      hint: 'Not enabled: changes.',
    });
  });
});

describe('each MCP session has its own toolsets', () => {
  it('enabling in one session leaves another as it started', async () => {
    const connect = async () => {
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(testContext(), { toolsets: ['taxonomy'] }).connect(serverSide);
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(clientSide);
      return client;
    };
    const [one, two] = [await connect(), await connect()];
    try {
      await one.callTool({ name: 'enable-toolset', arguments: { toolset: 'users' } });
      expect(names((await one.listTools()).tools)).toContain('list-users');
      expect(names((await two.listTools()).tools)).not.toContain('list-users');
    } finally {
      await one.close();
      await two.close();
    }
  });
});
