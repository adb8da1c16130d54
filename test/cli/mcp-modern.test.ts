
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveToolsets, selectTools, tools } from '../../src/call/index.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { type McpHttpChild, startMcpHttp } from '../helpers/mcp-http-cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';
import { newIdentity, newPassword } from '../wordpress/users/helpers.js';

/**
 * MCP 2026-07-28 with the official SDK 2.x client (issue #49), over Streamable HTTP and stdio:
 * `server/discover`, tools/list with its cache fields, a read, and approvals as multi round-trip
 * requests (`input_required` + a sealed `requestState`): approved (read back from WordPress),
 * declined, tampered, replayed, and a review that changed between the two calls.
 */
// The default toolsets' tools in the registry's order, then enable-toolset (the other toolsets are offered).
const registry = selectTools(tools, { toolsets: resolveToolsets(undefined) });
const token = `test-token-${'m'.repeat(24)}-${process.pid}`;
let server: McpHttpChild;
let url = '';

beforeAll(async () => {
  const site = testSite();
  server = await startMcpHttp(['--port', '0'], {
    ...process.env,
    CMS_URL: site.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    CMS_MCP_TOKEN: token,
  });
  url = server.url;
});

afterAll(() => {
  server?.child.kill();
  recordOutput(server?.stderr() ?? '');
});

type Answer = 'accept' | 'decline' | 'cancel';
interface Connected {
  client: Client;
  asked: string[];
  /** Raw JSON-RPC results as they came over the wire (HTTP only; stdio: undefined). */
  wire?: Array<Record<string, unknown>>;
}

const transports = {
  http(wire: Array<Record<string, unknown>>) {
    return new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (response.headers.get('content-type')?.startsWith('application/json')) {
          const copy = response.clone();
          wire.push((await copy.json()) as Record<string, unknown>);
        }
        return response;
      },
    });
  },
  stdio() {
    const site = testSite();
    return new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgs(), 'mcp'],
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword },
    });
  },
};

async function connect(
  kind: keyof typeof transports,
  options: { answer?: Answer | (() => Answer); manual?: boolean } = {},
): Promise<Connected> {
  const client = new Client(
    { name: 'modern-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(options.answer || options.manual ? { capabilities: { elicitation: { form: {} } } } : {}),
      ...(options.manual && { inputRequired: { autoFulfill: false } }),
    },
  );
  const asked: string[] = [];
  const { answer } = options;
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: typeof answer === 'function' ? answer() : answer };
    });
  }
  const wire: Array<Record<string, unknown>> = [];
  await client.connect(kind === 'http' ? transports.http(wire) : transports.stdio());
  return { client, asked, ...(kind === 'http' && { wire }) };
}

async function newSubscriber() {
  const { username, email } = newIdentity('mrtr');
  const user = await wp().post<{ id: number }>('/wp/v2/users', { username, email, password: newPassword(), roles: ['subscriber'] });
  return { id: user.id, username };
}

async function rolesOf(id: number): Promise<string[]> {
  return (await wp().get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles;
}

function bodyOf(result: { content?: unknown }) {
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  recordOutput(text);
  return JSON.parse(text);
}

type InputRequired = { resultType: 'input_required'; inputRequests: Record<string, { params: { message: string } }>; requestState: string };

/** The first round by hand: the call answers input_required. */
async function firstRound(client: Client, name: string, args: Record<string, unknown>): Promise<InputRequired> {
  const result = (await client.callTool({ name, arguments: args }, { allowInputRequired: true } as never)) as unknown as InputRequired;
  expect(result.resultType).toBe('input_required');
  return result;
}

/** The retry by hand, with the person's answer and the state as given. */
function retry(client: Client, name: string, args: Record<string, unknown>, requestState: string, action: Answer = 'accept') {
  return client.callTool(
    { name, arguments: args, inputResponses: { approve: { action, content: {} } }, requestState } as never,
    { allowInputRequired: true } as never,
  ) as Promise<Record<string, unknown>>;
}

describe.each(['http', 'stdio'] as const)('MCP 2026-07-28 over %s (SDK 2.x client)', (kind) => {
  it('discovers the server, lists the tools with their cache fields, reads', async () => {
    const { client, wire } = await connect(kind);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const discovered = client.getDiscoverResult();
      expect(discovered?.capabilities.tools).toBeDefined();
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual([...registry.map((t) => t.name), 'enable-toolset']);
      if (wire) {
        const raw = wire.find((m) => (m.result as { tools?: unknown })?.tools)?.result as Record<string, unknown>;
        expect(raw).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
      }
      const read = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
      expect(read.isError).toBe(false);
      expect((read.structuredContent as { total: number }).total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
    } finally {
      await client.close();
    }
  });

  it('a write that needs approval: asked once in plain words, runs on accept (read back)', async () => {
    const user = await newSubscriber();
    const { client, asked } = await connect(kind, { answer: 'accept' });
    try {
      const result = await client.callTool({ name: 'set-user-role', arguments: { id: user.id, role: 'administrator' } });
      expect(result.isError).toBe(false);
      expect(asked).toEqual([expect.stringMatching(new RegExp(`^Approve: give ${user.username} the role administrator .*\\(was: subscriber\\); it grants power: change every site setting \\(manage_options\\).*\\?$`))]);
      expect(await rolesOf(user.id)).toEqual(['administrator']);
    } finally {
      await client.close();
    }
  });

  it.each(['decline', 'cancel'] as const)('%s: a clear tool error, nothing written', async (action) => {
    const user = await newSubscriber();
    const { client, asked } = await connect(kind, { answer: action });
    try {
      const result = await client.callTool({ name: 'set-user-role', arguments: { id: user.id, role: 'administrator' } });
      expect(result.isError).toBe(true);
      expect(bodyOf(result).error).toMatchObject({ code: 'rejected_by_user', message: expect.stringMatching(action === 'decline' ? /declined/ : /cancelled/) });
      expect(asked).toHaveLength(1);
      expect(await rolesOf(user.id)).toEqual(['subscriber']);
    } finally {
      await client.close();
    }
  });

  it('a tampered requestState is refused; nothing written', async () => {
    const user = await newSubscriber();
    const { client } = await connect(kind, { manual: true });
    try {
      const args = { id: user.id, role: 'administrator' };
      const first = await firstRound(client, 'set-user-role', args);
      expect(first.inputRequests.approve!.params.message).toContain(user.username);
      // Another call's arguments under this state, and the state itself altered.
      await expect(retry(client, 'set-user-role', { ...args, role: 'editor' }, first.requestState)).rejects.toThrow(/another call/);
      const [head, payload, mac] = first.requestState.split('.');
      const altered = Buffer.from(payload!, 'base64url').toString('utf8').replace(/"nonce":"[^"]+"/, '"nonce":"forged"');
      const forged = [head, Buffer.from(altered).toString('base64url'), mac].join('.');
      await expect(retry(client, 'set-user-role', args, forged)).rejects.toThrow(/Invalid or expired requestState/);
      await expect(retry(client, 'set-user-role', args, `${first.requestState}x`)).rejects.toThrow(/Invalid or expired requestState/);
      expect(await rolesOf(user.id)).toEqual(['subscriber']);
    } finally {
      await client.close();
    }
  });

  it('a replayed requestState is refused: one approval runs once', async () => {
    const user = await newSubscriber();
    const { client } = await connect(kind, { manual: true });
    try {
      const args = { id: user.id, role: 'editor' };
      const first = await firstRound(client, 'set-user-role', args);
      const done = await retry(client, 'set-user-role', args, first.requestState);
      expect(done.isError).toBe(false);
      expect(await rolesOf(user.id)).toEqual(['editor']);
      // Put back by someone else; the same approval sent again must not set it a second time.
      await wp().post(`/wp/v2/users/${user.id}`, { roles: ['subscriber'] });
      await expect(retry(client, 'set-user-role', args, first.requestState)).rejects.toThrow(/already used/);
      expect(await rolesOf(user.id)).toEqual(['subscriber']);
    } finally {
      await client.close();
    }
  });

  it('a review that changed between the two calls is asked again, with the new words', async () => {
    const user = await newSubscriber();
    const { client } = await connect(kind, { manual: true });
    try {
      const args = { id: user.id, role: 'administrator' };
      const first = await firstRound(client, 'set-user-role', args);
      expect(first.inputRequests.approve!.params.message).toContain('(was: subscriber)');
      await wp().post(`/wp/v2/users/${user.id}`, { roles: ['author'] });
      const again = (await retry(client, 'set-user-role', args, first.requestState)) as unknown as InputRequired;
      expect(again.resultType).toBe('input_required');
      expect(again.inputRequests.approve!.params.message).toContain('(was: author)');
      expect(await rolesOf(user.id)).toEqual(['author']);
      const done = await retry(client, 'set-user-role', args, again.requestState);
      expect(done.isError).toBe(false);
      expect(await rolesOf(user.id)).toEqual(['administrator']);
    } finally {
      await client.close();
    }
  });

  it('a client that cannot be asked is refused as before, naming --yes', async () => {
    const { client } = await connect(kind);
    try {
      const user = await newSubscriber();
      const result = await client.callTool({ name: 'set-user-role', arguments: { id: user.id, role: 'administrator' } });
      expect(result.isError).toBe(true);
      expect(bodyOf(result).error).toMatchObject({ code: 'approval_unavailable', message: expect.stringMatching(/--yes/) });
      expect(await rolesOf(user.id)).toEqual(['subscriber']);
    } finally {
      await client.close();
    }
  });
});
