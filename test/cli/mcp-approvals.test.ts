import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/index.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { recordOutput, recordSecretsOf } from '../helpers/output-log.js';
import { testContext, testSite, wp } from '../helpers/site.js';
import { newIdentity, newPassword } from '../wordpress/users/helpers.js';
import { cliArgs } from '../helpers/cli-bin.js';

/**
 * MCP approvals with the SDK's own client: a call that needs approval is asked of the person
 * through elicitation when the client declared it, and runs only on accept; a client without
 * elicitation is refused, saying why, unless the server approves (--yes). Read back from WordPress.
 */
async function connect(answer?: (request: ElicitRequest) => ElicitResult) {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(testContext()).connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' }, answer ? { capabilities: { elicitation: {} } } : {});
  const asked: ElicitRequest[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request);
      return answer(request);
    });
  }
  await client.connect(clientSide);
  return { client, asked };
}

function adminArgs() {
  const { username, email } = newIdentity('mcpadmin');
  const args = { username, email, password: newPassword(), role: 'administrator' };
  recordSecretsOf(args);
  return args;
}

async function roleOf(username: string): Promise<string[] | undefined> {
  const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
  return found.find((u) => u.username === username)?.roles;
}

async function createAdmin(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'create-user', arguments: args });
  recordOutput(JSON.stringify(result));
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  return { isError: result.isError, body: JSON.parse(text) };
}

describe('MCP elicitation declared', () => {
  it('accept: the person is asked once, with the summary read from the site, and the user is created', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept', content: {} }));
    const args = adminArgs();
    const { isError } = await createAdmin(client, args);
    expect(isError).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params.message).toContain(`create the user ${args.username}`);
    expect(asked[0]!.params.message).toMatch(/role administrator \(manage_options/);
    expect(asked[0]!.params.message).not.toContain(args.password);
    expect(await roleOf(args.username)).toEqual(['administrator']);
    await client.close();
  });

  it.each(['decline', 'cancel'] as const)('%s: a clear tool error, nothing written', async (action) => {
    const { client, asked } = await connect(() => ({ action }));
    const args = adminArgs();
    const { isError, body } = await createAdmin(client, args);
    expect(isError).toBe(true);
    expect(body.error.code).toBe('rejected_by_user');
    expect(body.error.message).toMatch(action === 'decline' ? /declined/ : /cancelled/);
    expect(asked).toHaveLength(1);
    expect(await roleOf(args.username)).toBeUndefined();
    await client.close();
  });

  it('a subscriber and a dry run are not asked about', async () => {
    const { client, asked } = await connect(() => ({ action: 'decline' }));
    const sub = { ...adminArgs(), role: 'subscriber' };
    expect((await createAdmin(client, sub)).isError).toBe(false);
    const dry = { ...adminArgs(), dry_run: true };
    const { isError, body } = await createAdmin(client, dry);
    expect(isError).toBe(false);
    expect(body).toMatchObject({ dry_run: true, needs_approval: true });
    expect(body.would).toContain(dry.username);
    expect(asked).toEqual([]);
    expect(await roleOf(sub.username)).toEqual(['subscriber']);
    expect(await roleOf(dry.username)).toBeUndefined();
    await client.close();
  });
});

describe('MCP client without elicitation', () => {
  it('is refused, saying why and what to do; nothing written', async () => {
    const { client } = await connect();
    const args = adminArgs();
    const { isError, body } = await createAdmin(client, args);
    expect(isError).toBe(true);
    expect(body.error.code).toBe('approval_unavailable');
    expect(body.error.message).toMatch(/elicitation/);
    expect(body.error.message).toMatch(/--yes/);
    expect(await roleOf(args.username)).toBeUndefined();
    await client.close();
  });

  it.each([['--yes'], ['--approve', 'create-user']])('cms-admin mcp %s runs it', async (...flags) => {
    const site = testSite();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...cliArgs(), 'mcp', ...flags],
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword },
      }),
    );
    const args = adminArgs();
    expect((await createAdmin(client, args)).isError).toBe(false);
    expect(await roleOf(args.username)).toEqual(['administrator']);
    await client.close();
  });
});
