import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT, runCli } from './cli.js';
import { cliArgs, cliShell } from './cli-bin.js';
import { startMcpHttp } from './mcp-http-cli.js';
import { recordOutput } from './output-log.js';
import type { Seen, Surface, Target } from './surfaces.js';
import { TmuxTerminal } from './tmux.js';

/** The surface property's surfaces in other processes: the tool shell (piped, and in a terminal) and MCP (stdio and HTTP, both revisions). */
const siteEnv = (target: Target) => ({ ...target.env, XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-surface-')) });
const noModel = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', CMS_AGENT_MODEL: '' };
const line = (tool: string, params: Record<string, unknown>) => `${tool} ${JSON.stringify(params)}`;
const textOf = (result: { content?: unknown }) => {
  const text = (result.content as Array<{ text?: string }> | undefined)?.[0]?.text ?? '';
  recordOutput(text);
  return text;
};

type McpCall = (tool: string, params: Record<string, unknown>) => Promise<{ content?: unknown }>;

/** An MCP client of either SDK that declines every question and keeps its message. */
async function mcp(connect: (onAsk: (message: string) => void) => Promise<{ callTool: McpCall; close(): Promise<void> }>): Promise<Surface> {
  let asked: string[] = [];
  const client = await connect((message) => asked.push(message));
  return {
    async call(tool, params) {
      asked = [];
      const answer = textOf(await client.callTool(tool, params));
      return { ...(asked[0] !== undefined && { asked: asked[0] }), answer };
    },
    stop: () => client.close(),
  };
}

async function legacyClient(transport: StdioClientTransport | StreamableHTTPClientTransport, onAsk: (m: string) => void) {
  const client = new Client({ name: 'surface-2025', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    onAsk(String(request.params.message));
    return { action: 'decline' };
  });
  await client.connect(transport);
  return { callTool: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<{ content?: unknown }>, close: () => client.close() };
}

async function modernClient(transport: ModernStdio | ModernHttp, onAsk: (m: string) => void) {
  const client = new ModernClient({ name: 'surface-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } } as never);
  client.setRequestHandler('elicitation/create', async (request: { params: unknown }) => {
    onAsk(String((request.params as { message: string }).message));
    return { action: 'decline' };
  });
  await client.connect(transport);
  return { callTool: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<{ content?: unknown }>, close: () => client.close() };
}

const stdioArgs = (target: Target) => ({ command: process.execPath, args: [...cliArgs(), 'mcp', '--toolsets', 'all'], cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...siteEnv(target) } });

type HttpServer = { url: string; token: string; stop(): void };
const https = new Map<string, Promise<HttpServer>>();
/** One `mcp --http --toolsets all` a site, for both revisions (2026-07-28 POSTs go to its modern handler). */
function httpServer(target: Target) {
  let server = https.get(target.env.CMS_URL);
  if (!server) {
    server = (async () => {
      const token = `surface-token-${'s'.repeat(24)}-${process.pid}`;
      const { CMS_SITE: _profile, ...inherited } = process.env;
      const child = await startMcpHttp(['--port', '0', '--toolsets', 'all'], { ...inherited, ...siteEnv(target), CMS_MCP_TOKEN: token });
      const stop = () => {
        recordOutput(child.stderr());
        child.child.kill();
      };
      return { url: child.url, token, stop };
    })();
    https.set(target.env.CMS_URL, server);
  }
  return server;
}
const bearer = (token: string) => ({ requestInit: { headers: { Authorization: `Bearer ${token}` } } });

export const REMOTE_SURFACES = {
  /** The tool shell with no terminal (piped): a question cannot be asked, so it is refused, naming it. */
  async shell(target: Target): Promise<Surface> {
    const env = { ...siteEnv(target), ...noModel, CMS_SITE: undefined };
    return {
      async call(tool, params) {
        const run = await runCli(['chat'], { env, input: `${line(tool, params)}\n/exit\n` });
        const answer = run.stdout.slice(run.stdout.indexOf('tool>'));
        const refused = /needs approval(?: \((.*)\))?, and no one can approve it here/s.exec(answer);
        const asked = refused ? (refused[1] ?? '(the question is not shown)') : undefined;
        return { ...(asked !== undefined && { asked }), answer };
      },
    };
  },
  /** The tool shell in a real terminal (tmux): the question on screen, answered n. */
  async 'shell-terminal'(target: Target): Promise<Surface> {
    const term = new TmuxTerminal(`cms-surface-shell${target.network ? '-net' : ''}`);
    const exports = Object.entries({ ...siteEnv(target), NO_COLOR: '1' })
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ');
    term.start(`cd ${REPO_ROOT} && env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u CMS_AGENT_MODEL -u CMS_SITE ${exports} ${cliShell()} chat`);
    await term.waitFor('tool>');
    const since = (mark: number) => term.scrollback().trimEnd().slice(mark);
    return {
      async call(tool, params): Promise<Seen> {
        // Only this call's lines are read: the history above the screen is dropped first (tmux keeps 2,000 lines).
        term.run('clear-history', '-t', term.session);
        const mark = term.scrollback().trimEnd().length;
        term.run('send-keys', '-t', term.session, '-l', line(tool, params));
        term.type('Enter');
        await term.until(() => /Run it\? \[y\/N\]|\ntool>$/.test(since(mark)), `${tool} to ask or answer`);
        let shown = since(mark);
        const asked = /Approval needed:\s*(.*?)\s*Run it\? \[y\/N\]/s.exec(shown)?.[1];
        if (asked !== undefined) {
          term.type('n', 'Enter');
          await term.until(() => /\ntool>$/.test(since(mark)), `${tool} to be declined`);
          shown = since(mark);
        }
        return { ...(asked !== undefined && { asked }), answer: shown };
      },
      stop: () => term.stop(),
    };
  },
  'mcp-stdio-2025': (target: Target) => mcp((onAsk) => legacyClient(new StdioClientTransport(stdioArgs(target)), onAsk)),
  'mcp-stdio-2026': (target: Target) => mcp((onAsk) => modernClient(new ModernStdio(stdioArgs(target)), onAsk)),
  'mcp-http-2025': async (target: Target) => {
    const server = await httpServer(target);
    return mcp((onAsk) => legacyClient(new StreamableHTTPClientTransport(new URL(server.url), bearer(server.token)), onAsk));
  },
  'mcp-http-2026': async (target: Target) => {
    const server = await httpServer(target);
    return mcp((onAsk) => modernClient(new ModernHttp(new URL(server.url), bearer(server.token)), onAsk));
  },
} satisfies Record<string, (target: Target) => Promise<Surface>>;

/** Stops the shared HTTP servers started. */
export async function stopRemoteSurfaces(): Promise<void> {
  for (const server of https.values()) (await server).stop();
  https.clear();
}
