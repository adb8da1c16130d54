import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/call/envelope.js';
import { readCredentials, readMailLog } from '../../src/sandbox/index.js';
import type { ToolContext } from '../../src/call/index.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { SecretScan } from '../helpers/secrets.js';
import { testSite, unique } from '../helpers/site.js';
import { cliArgs } from '../helpers/cli-bin.js';

/**
 * Representative operations through every output channel — envelope results and errors,
 * `cms-admin invoke`, the chat trace and what the model is sent, the MCP server, the audit log —
 * and not one byte of them holds the application password, a user password or a reset link
 * (except the one link asked for with `delivery: "link"`).
 */

const scan = new SecretScan();
const site = testSite();
const sandbox = { home: process.env.CMS_SANDBOX_HOME, name: process.env.CMS_TEST_SANDBOX };
const auditLog = path.join(tmpdir(), `cms-admin-secrets-${process.pid}-${Date.now()}.jsonl`);
const wrongAppPassword = 'abcd EFGH 1234 ijkl MNOP 5678';
const basicAuthSecret = scan.secret('basic-auth password in CMS_URL', `Basic-${Date.now().toString(36)}-secret`);
const emails: string[] = [];

beforeAll(async () => {
  scan.appPassword('application password', site.username, site.appPassword);
  scan.appPassword('wrong application password', site.username, wrongAppPassword);
  const creds = await readCredentials(sandbox);
  if (creds) scan.secret('sandbox admin password', creds.adminPassword);
});

afterAll(() => rmSync(auditLog, { force: true }));

/** A new account's identity; its email is watched for reset mail. */
function identity(prefix: string) {
  const username = unique(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
  const email = `${username}@example.org`;
  emails.push(email);
  return { username, email };
}

async function call(
  context: ToolContext,
  channel: string,
  tool: string,
  params: Record<string, unknown>,
  allowed: string[] = [],
) {
  const outcome = await invoke({ tool, params }, context);
  scan.record(`envelope:${channel}`, outcome, allowed);
  return outcome;
}

const cliEnv = (extra: NodeJS.ProcessEnv = {}) => ({
  CMS_AUDIT_LOG: auditLog,
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  ...extra,
});

async function cli(channel: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = await runCli(args, { env: cliEnv(env) });
  scan.record(`cli:${channel}:stdout`, run.stdout);
  scan.record(`cli:${channel}:stderr`, run.stderr);
  return run;
}

describe('every output channel', () => {
  it('envelope results and errors, in process', async () => {
    const context = createContext(site, { auditLog });
    const user = identity('secret user');
    const created = await call(context, 'create-user', 'create-user', {
      ...user,
      password: scan.password('create-user password'),
      role: 'author',
    });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    const id = (created.result as { id: number }).id;
    expect(
      (await call(context, 'update-user', 'update-user', { id, password: scan.password('update-user password') })).ok,
    ).toBe(true);
    const weak = scan.secret('weak password (contains the username)', `${user.username}-2024`);
    expect(await call(context, 'update-user weak', 'update-user', { id, password: weak })).toMatchObject({
      ok: false,
      error: { code: 'weak_password' },
    });
    expect(
      await call(context, 'create-user duplicate', 'create-user', {
        ...user,
        password: scan.password('duplicate user password'),
      }),
    ).toMatchObject({ ok: false, error: { code: 'user_exists' } });
    const bogus = scan.password('password beside an unknown param');
    expect(
      await call(context, 'create-user invalid', 'create-user', { ...user, password: bogus, pasword: bogus }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(
      await call(context, 'update-user missing', 'update-user', {
        id: 2_147_483_647,
        password: scan.password('password for a missing user'),
      }),
    ).toMatchObject({ ok: false, error: { code: 'user_not_found' } });
    expect((await call(context, 'reset default', 'reset-user-password', { id })).ok).toBe(true);
    await call(context, 'list-users', 'list-users', { search: user.username });

    // The one output allowed to hold a reset link: the one that asked for it.
    const other = identity('secret link');
    const made = await call(context, 'create-user link', 'create-user', {
      ...other,
      password: scan.password('link user password'),
    });
    const otherId = (made.ok && (made.result as { id: number }).id) as number;
    // Only a caller that asked for links in results (invoke --show-reset-link, mcp --reveal-reset-links) gets one.
    const linkContext = createContext(site, { auditLog, secretsTo: 'result' });
    const linkCall = await invoke(
      { tool: 'reset-user-password', params: { id: otherId, delivery: 'link' } },
      linkContext,
    );
    if (!linkCall.ok) throw new Error(JSON.stringify(linkCall.error));
    const link = scan.secret(
      'reset link returned by delivery "link"',
      (linkCall.result as { reset_link: string }).reset_link,
    );
    const key = scan.secret('reset key returned by delivery "link"', new URL(link).searchParams.get('key') ?? '');
    scan.record('envelope:reset link', linkCall, [link, key]);
    expect((await call(context, 'reset default after link', 'reset-user-password', { id })).ok).toBe(true);
  });

  it('envelope errors with a wrong application password', async () => {
    const context = createContext({ ...site, appPassword: wrongAppPassword }, { auditLog });
    expect(await call(context, 'bad credentials read', 'get-cms-tags', {})).toMatchObject({
      ok: false,
      error: { code: 'authentication_failed' },
    });
    expect(
      await call(context, 'bad credentials write', 'create-user', {
        ...identity('never'),
        password: scan.password('password sent with bad credentials'),
      }),
    ).toMatchObject({ ok: false });
  });

  it('cms-admin invoke: stdout and stderr', async () => {
    const user = identity('secret cli');
    const password = scan.password('cli create-user password');
    const created = await cli('create-user', [
      'invoke',
      JSON.stringify({ tool: 'create-user', params: { ...user, password } }),
    ]);
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).result.id;
    const runs = await Promise.all([
      cli('reset', ['invoke', JSON.stringify({ tool: 'reset-user-password', params: { id } })]),
      cli('bad credentials', ['invoke', '{"tool":"get-cms-tags"}'], { CMS_APP_PASSWORD: wrongAppPassword }),
      cli('credentials in CMS_URL', ['invoke', '{"tool":"get-cms-tags"}'], {
        CMS_URL: site.url.replace('://', `://${site.username}:${basicAuthSecret}@`),
        CMS_APP_PASSWORD: wrongAppPassword,
      }),
    ]);
    expect(runs[0]?.code).toBe(0);
    expect(runs[1]?.code).toBe(1);
    expect(runs[2]?.code).toBe(1);
    const update = await runCli(['invoke', '-'], {
      env: cliEnv(),
      input: JSON.stringify({
        tool: 'update-user',
        params: { id, password: scan.password('cli update-user password') },
      }),
    });
    scan.record('cli:update-user stdin:stdout', update.stdout);
    scan.record('cli:update-user stdin:stderr', update.stderr);
    expect(update.code).toBe(0);
  });

  it('cms-admin chat --once: the trace, stderr, and what the model is sent', async () => {
    const model = await new ScriptedOpenAI().start();
    try {
      const user = identity('secret chat');
      const withModel = cliEnv({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.url, CMS_AGENT_MODEL: 'scripted' });
      model.script(
        {
          toolCalls: [
            {
              name: 'create-user',
              args: { ...user, password: scan.password('chat create-user password'), role: 'editor' },
            },
          ],
        },
        (request) => {
          const id = JSON.parse(String(request.messages.at(-1)?.content)).id;
          return {
            toolCalls: [
              { name: 'update-user', args: { id, password: scan.password('chat update-user password') } },
              { name: 'reset-user-password', args: { id } },
              { name: 'update-user', args: { id, password: scan.secret('chat weak password', `${user.username}!!`) } },
            ],
          };
        },
        { content: 'Done.' },
      );
      const json = await runCli(['chat', '--once', 'set them up', '--json', '--yes'], { env: withModel });
      scan.record('chat:json:stdout', json.stdout);
      scan.record('chat:json:stderr', json.stderr);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout).toolCalls.map((c: { name: string }) => c.name)).toEqual([
        'create-user',
        'update-user',
        'reset-user-password',
        'update-user',
      ]);

      model.script(
        {
          toolCalls: [
            {
              name: 'create-user',
              args: { ...identity('secret plain'), password: scan.password('chat plain password') },
            },
          ],
        },
        { content: 'Created.' },
      );
      const plain = await runCli(['chat', '--once', 'add one', '--yes'], { env: withModel });
      scan.record('chat:plain:stdout', plain.stdout);
      scan.record('chat:plain:stderr', plain.stderr);
      expect(plain.stdout.trim()).toBe('Created.');
      // Tool results as the model receives them (its own tool-call arguments are its own words).
      for (const request of model.requests) {
        for (const message of request.messages)
          if (message.role === 'tool') scan.record('chat:to-model', message.content);
      }
    } finally {
      await model.stop();
    }
  });

  it('the MCP server: results and stderr', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      CMS_URL: site.url,
      CMS_USERNAME: site.username,
      CMS_APP_PASSWORD: site.appPassword,
      CMS_AUDIT_LOG: auditLog,
    };
    const transport = new StdioClientTransport({
      command: process.execPath,
      // --yes: the operator approves up front (this client answers no elicitation); the test is about secrets.
      args: [...cliArgs(), 'mcp', '--yes'],
      cwd: REPO_ROOT,
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => (stderr += d));
    const client = new Client({ name: 'secrets-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const user = identity('secret mcp');
      const mcp = async (tool: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name: tool, arguments: args });
        scan.record(`mcp:${tool}`, result);
        return result;
      };
      const created = await mcp('create-user', { ...user, password: scan.password('mcp create-user password') });
      expect(created.isError).toBe(false);
      const id = JSON.parse((created.content as Array<{ text: string }>)[0]?.text ?? '{}').id;
      expect((await mcp('update-user', { id, password: scan.password('mcp update-user password') })).isError).toBe(
        false,
      );
      expect((await mcp('reset-user-password', { id })).isError).toBe(false);
      expect(
        (await mcp('create-user', { ...user, password: scan.secret('mcp weak password', `${user.username}#1`) }))
          .isError,
      ).toBe(true);
      expect(
        (await mcp('update-user', { id: 2_147_483_647, password: scan.password('mcp password for a missing user') }))
          .isError,
      ).toBe(true);
    } finally {
      await client.close();
      scan.record('mcp:stderr', stderr);
    }
    const refused = await runCli(['mcp'], { env: cliEnv({ CMS_APP_PASSWORD: wrongAppPassword }), timeoutMs: 30_000 });
    scan.record('mcp bad credentials:stdout', refused.stdout);
    scan.record('mcp bad credentials:stderr', refused.stderr);
    expect(refused.code).not.toBe(0);
  });

  it('no output holds a secret; reset links stay in the mailbox', async () => {
    const mails = (await readMailLog(sandbox)).filter((mail) => mail.to.some((to) => emails.includes(to)));
    const links = mails.flatMap((mail) =>
      [...mail.message.matchAll(/(http\S+wp-login\.php\?\S*action=rp\S*)/g)].map((m) => m[1] as string),
    );
    expect(links.length).toBeGreaterThanOrEqual(4); // in process (2), cli, chat, mcp
    links.forEach((link, i) => {
      scan.secret(`emailed reset link ${i + 1}`, link);
      scan.secret(`emailed reset key ${i + 1}`, new URL(link).searchParams.get('key') ?? '');
    });
    const audited = existsSync(auditLog);
    if (audited) scan.record('audit-log', readFileSync(auditLog, 'utf8'));
    const findings = scan.findings();
    console.log(
      `secrets: ${scan.outputs} outputs (${scan.bytes} bytes) on ${scan.channels().join(', ')}; ${scan.secrets} secret values; ${findings.length} found; audit log ${audited ? 'included' : 'absent'}`,
    );
    expect(findings).toEqual([]);
    expect(audited).toBe(true);
  });
});
