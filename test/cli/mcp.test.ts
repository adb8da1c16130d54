import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { resolveToolsets, selectTools, tools } from '../../src/call/index.js';
import { cliArgs } from '../helpers/cli-bin.js';

// A single site's tools, the default toolsets (issue #51): the network tools are listed only on a
// multisite network (docs/multisite.md), enable-toolset only while a toolset with tools is not enabled.
const registry = selectTools(tools, { toolsets: resolveToolsets(undefined) });
const offered = <T extends { name: string }>(list: T[]) => list.filter((tool) => tool.name !== 'enable-toolset');

const serverCommand = () => {
  const site = testSite();
  return {
    command: process.execPath,
    args: [...cliArgs(), 'mcp'],
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      CMS_URL: site.url,
      CMS_USERNAME: site.username,
      CMS_APP_PASSWORD: site.appPassword,
    },
  };
};

describe('cms-admin mcp over a real stdio pipe', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StdioClientTransport(serverCommand()));
  });
  afterAll(() => client.close());

  it('lists every registry tool, equal to `cms-admin tools --json`', async () => {
    const { tools } = await client.listTools();
    const cli = JSON.parse((await runCli(['tools', '--json', '--toolsets', 'taxonomy,users,changes'])).stdout) as Array<{
      name: string;
      description: string;
      inputSchema: unknown;
      annotations: { readOnly: boolean; destructive: boolean; idempotent: boolean };
    }>;
    expect(offered(tools)).toHaveLength(registry.length);
    expect(offered(tools).map((t) => t.name).sort()).toEqual(cli.map((t) => t.name).sort());
    for (const listed of offered(tools)) {
      const same = cli.find((t) => t.name === listed.name)!;
      expect(listed.inputSchema).toEqual(same.inputSchema);
      expect(listed.description).toBe(same.description);
      expect(listed.annotations).toMatchObject({
        readOnlyHint: same.annotations.readOnly,
        destructiveHint: same.annotations.destructive,
        idempotentHint: same.annotations.idempotent,
      });
    }
  });

  it('calls a read tool and a write tool; the site shows the write', async () => {
    const read = await client.callTool({ name: 'get-cms-tags', arguments: {} });
    expect(read.isError).toBe(false);
    const listed = JSON.parse((read.content as Array<{ text: string }>)[0]!.text);
    expect(listed.total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));

    const name = unique('MCP tag');
    const write = await client.callTool({ name: 'create-tag', arguments: { name, description: 'via MCP' } });
    expect(write.isError).toBe(false);
    const created = JSON.parse((write.content as Array<{ text: string }>)[0]!.text);
    expect(await wp().get(`/wp/v2/tags/${created.id}`)).toMatchObject({ name, description: 'via MCP' });
  });

  it('a bad call is an isError result with the envelope’s message', async () => {
    const bad = await client.callTool({ name: 'create-tag', arguments: { name: 5 } });
    expect(bad.isError).toBe(true);
    const error = JSON.parse((bad.content as Array<{ text: string }>)[0]!.text).error;
    const cli = JSON.parse((await runCli(['invoke', '{"tool":"create-tag","params":{"name":5}}'])).stdout).error;
    expect(error).toEqual(cli);
  });

  it('an unknown tool is a JSON-RPC error -32602 naming it and the closest names; nothing written (issue #37)', async () => {
    const before = await wp().count('/wp/v2/categories', { hide_empty: false });
    const error = await client.callTool({ name: 'create-categry', arguments: { name: unique('typo') } }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool "create-categry": no such tool. Closest listed: create-category'),
      data: { code: 'unknown_tool', tool: 'create-categry', closest: expect.arrayContaining(['create-category']) },
    });
    expect(await wp().count('/wp/v2/categories', { hide_empty: false })).toBe(before);
    // The session goes on: a listed tool with bad arguments is still a tool result the model reads.
    expect((await client.callTool({ name: 'create-category', arguments: { name: 5 } })).isError).toBe(true);
  });

  it('annotates tools that may grant power or take an account destructive, and keeps reset links from the client', async () => {
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations?.destructiveHint]));
    for (const name of ['create-user', 'update-user', 'enable-user', 'set-user-role', 'reset-user-password'])
      expect(hints[name], name).toBe(true);
    expect(hints['create-tag']).toBe(false);
    expect(tools.find((t) => t.name === 'create-user')?.description).toContain('need approval');

    const user = await wp().post<{ id: number }>('/wp/v2/users', {
      username: unique('mcp_reset').replace(/\W+/g, '_'),
      email: `${unique('mcp').replace(/\W+/g, '_')}@example.org`,
      password: `Pw-${unique('x')}`,
    });
    const reset = await client.callTool({ name: 'reset-user-password', arguments: { id: user.id, delivery: 'link' } });
    expect(reset.isError).toBe(true);
    const text = (reset.content as Array<{ text: string }>)[0]!.text;
    expect(JSON.parse(text).error.code).toBe('no_one_to_receive_link');
    expect(text).not.toContain('action=rp');
  });
});

describe('--read-only over MCP', () => {
  it('exposes only read-only tools and refuses others', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const command = serverCommand();
    await client.connect(new StdioClientTransport({ ...command, args: [...command.args, '--read-only'] }));
    try {
      const { tools } = await client.listTools();
      expect(tools.every((t) => t.annotations?.readOnlyHint)).toBe(true);
      // Not listed, so a protocol error (-32602) naming the tool and the closest listed names.
      await expect(client.callTool({ name: 'create-tag', arguments: { name: unique('nope') } })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('Unknown tool "create-tag": not listed: the session is read-only (--read-only), a limit'),
        data: { code: 'tool_not_allowed', tool: 'create-tag' },
      });
    } finally {
      await client.close();
    }
  });
});

describe('@langchain/mcp-adapters', () => {
  let model: ScriptedOpenAI;
  beforeAll(async () => {
    model = await new ScriptedOpenAI().start();
  });
  afterAll(() => model.stop());

  it('loads the MCP tools into a LangChain agent that uses them on the site', async () => {
    const mcp = new MultiServerMCPClient({ mcpServers: { wordpress: { transport: 'stdio', ...serverCommand() } } });
    try {
      const tools = await mcp.getTools();
      expect(offered(tools)).toHaveLength(registry.length);
      const name = unique('MCP agent cat');
      model.script({ toolCalls: [{ name: 'create-category', args: { name } }] }, { content: 'done' });
      const agent = createAgent({
        model: new ChatOpenAI({ model: 'scripted', apiKey: 'x', configuration: { baseURL: model.url } }),
        tools,
      });
      await agent.invoke({ messages: [{ role: 'user', content: 'make it' }] });
      const found = await wp().get<Array<{ name: string }>>('/wp/v2/categories', { search: name });
      expect(found.map((c) => c.name)).toEqual([name]);
    } finally {
      await mcp.close();
    }
  });
});

describe('--allow with several tools over MCP', () => {
  it('lists and runs exactly the allowed tools (two and three names); others are a JSON-RPC error (tool_not_allowed)', async () => {
    for (const allow of [['get-cms-tags', 'list-users'], ['get-cms-tags', 'list-users', 'list-taxonomies']]) {
      const client = new Client({ name: 'test', version: '1.0.0' });
      const command = serverCommand();
      await client.connect(new StdioClientTransport({ ...command, args: [...command.args, '--allow', allow.join(',')] }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual([...allow].sort());
        for (const name of allow) {
          const result = await client.callTool({ name, arguments: {} });
          expect(result.isError, name).toBe(false);
        }
        const name = unique('not allowed');
        await expect(client.callTool({ name: 'create-tag', arguments: { name } })).rejects.toMatchObject({
          code: -32602,
          data: { code: 'tool_not_allowed', tool: 'create-tag' },
        });
        expect(await wp().get<unknown[]>('/wp/v2/tags', { search: name })).toEqual([]);
      } finally {
        await client.close();
      }
    }
  });
});
