import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { checkContextSettings, checkSiteUrl, createContext } from '../config.js';
import { abilityTools, findTool, hasAbilitiesApi, networkToolsFor } from '../call/index.js';
import { registerMcpConfigCommand } from './mcp-config.js';
import { resolveCliSiteConfig } from './site-config.js';
import { sessionSites } from './sites/fleet-session.js';
import { fileJournal } from '../undo/journal.js';
import { isPostgresUrl } from '../undo/change-store-pg.js';
import { cliJournal, JOURNAL_FLAG, stateHome } from './journal-path.js';
import { ABILITIES_FLAG, ANSWER_BUDGET_FLAG, TOOLSETS_FLAG, abilityPatterns, badFlag, contextOptions, filterFromOptions, type FilterOptions } from './shared.js';

/**
 * The MCP Inspector as the tests run it (test/cli/mcp-conformance.test.ts uses these words): its
 * version and the Node it runs on pinned, so the command works whatever Node runs npx — an
 * unpinned `npx @modelcontextprotocol/inspector` resolves to 0.15.0 on Node 20, which has no HTTP,
 * and 2.12.0 itself needs Node ≥ 22.19 (#52.15).
 */
export const INSPECTOR_NPX = ['-y', '-p', 'node@24.21.0', '-p', '@modelcontextprotocol/inspector@2.12.0', '--', 'mcp-inspector'];

const STDIO_ON_TERMINAL = `cms-admin mcp: serving MCP on stdio, waiting for an MCP client to write to stdin.
An MCP client starts this command itself (README.md, "MCP clients"). To try it by hand:
  npx ${INSPECTOR_NPX.join(' ')} npx cms-admin mcp
      (a browser UI that calls the tools; add --cli … for its command-line mode)
  npx cms-admin mcp --http                                   (Streamable HTTP: docs/remote-mcp.md)
Ctrl-C stops it.`;

export function registerMcpCommand(program: Command): void {
  const mcp = program
    .command('mcp')
    .description('Serve every tool over the Model Context Protocol on stdio, or Streamable HTTP with --http')
    .option(
      '--http',
      'serve MCP Streamable HTTP at /mcp instead of stdio (people sign in with WordPress, or a static token: see --auth)',
    )
    .option('--host <host>', 'with --http: address to bind (default 127.0.0.1; others need --public-url https://…)')
    .option('--port <port>', 'with --http: port (default 8765)')
    .option('--public-url <url>', 'with --http: the https address a TLS reverse proxy serves it at')
    .option('--token-file <file>', 'with --http: file holding the bearer token clients must send')
    .option(
      '--auth <mode>',
      'with --http: wordpress (each person signs in on the site; default without a token), token, or none (loopback only, for local tools)',
    )
    .option(
      '--state-dir <dir>',
      'with --http --auth wordpress: where grants are kept (default ~/.local/state/cms-admin/mcp; unused with --store postgres://…)',
    )
    .option(
      '--store <url>',
      'with --http: embedded (default) or postgres://… (env CMS_STORE): approval and sign-in state and the change store, shared by several server processes',
    )
    .option(
      '--rate-limit <n[/seconds]>',
      'with --http --auth wordpress: at most n sign-in requests per client address a minute (or per seconds), counted in --store',
    )
    .option(
      '--allow-loopback-client-ids',
      'with --http --auth wordpress: fetch Client ID Metadata Documents from loopback too (tests only; docs/remote-mcp.md)',
    )
    .option('--read-only', 'expose only read-only tools')
    .option('--toolkit <name>', 'expose one toolkit only: taxonomy or users')
    .option('--allow <names>', 'comma-separated allowlist of tool names')
    .option(...TOOLSETS_FLAG)
    .option(...ABILITIES_FLAG)
    .option('--sites <sites>', 'stdio: several site profiles (a,b | @group | all); every tool takes site')
    .option(
      '--yes',
      'approve every call that needs approval (for clients without elicitation; the client must confirm)',
    )
    .option('--approve <names>', 'comma-separated tools whose calls are approved without asking')
    .option('--reveal-reset-links', 'return reset links in results (they reach the MCP client and its model)')
    .option('--strict', 'list strict-ready input schemas (all params required, optional ones nullable)')
    .option('--audit-log <file>', 'append a JSON line per write to this file (default: env CMS_AUDIT_LOG)')
    .option(...JOURNAL_FLAG)
    .option(...ANSWER_BUDGET_FLAG)
    .addHelpText(
      'after',
      `
With --http, each person signs in on the WordPress site (OAuth: our consent page first names
the client, as it calls itself, and where it will send the browser; then WordPress's own
authorize-application.php creates an application password for them, kept encrypted in
--state-dir) and their calls run as them. With CMS_MCP_TOKEN or --token-file (or --auth token)
every client sends that static bearer token and acts as the configured account. Real
deployments need --public-url https://… behind a TLS proxy. Requests must name this server in
Host (its address, or --public-url's host), else 421. See docs/remote-mcp.md.
With --store postgres://… (CMS_STORE) several processes behind one load balancer serve one
deployment: registered clients, consents, codes, tokens, grants (passwords encrypted), approval
states and --rate-limit counters are in PostgreSQL, none in --state-dir.
--auth none (loopback only, refused with another --host or --public-url) takes no credentials,
for local tools such as the Inspector's UI. Both MCP 2025-11-25 and 2026-07-28 are served.
Calls that need a person's approval (an administrator, a deletion; see docs/safety.md) are
asked of the person through MCP elicitation (2026-07-28: an input_required round trip). A client without elicitation gets a refusal,
unless --yes or --approve names the tool.
Each session starts with the default toolsets (taxonomy, users, changes; network on a network you
administer) or --toolsets; enable-toolset adds one and sends notifications/tools/list_changed.
The site's own WordPress abilities (6.9+): the abilities toolset finds, describes and runs them;
--abilities woocommerce/* lists those as tools of their own (docs/abilities.md).
With --sites (stdio) every tool takes site (a name, "a,b", "@group" or "all"), answers per site,
and list-sites is listed; a write on more than one site is one elicitation listing each site's
change, read from that site. docs/fleets.md.
Site from CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD (or the local sandbox when CMS_URL is unset);
--http signing people in needs only CMS_URL.
A client's config (Claude Desktop, VS Code, Cursor) that starts this server from any folder, by
absolute paths and the site by name: \`cms-admin mcp config claude-desktop|vscode|cursor\` (--help).`,
    )
    .action(async (options: McpOptions) => {
      const filter = filterFromOptions(options);
      const siteOptions = contextOptions(options);
      checkContextSettings();
      const approvals = { yes: Boolean(options.yes), approve: approveList(options.approve) };
      if (options.sites !== undefined) {
        if (options.http) throw badFlag('--sites serves stdio only: over --http each person signs in to one site.');
        const fleet = sessionSites(options.sites, {
          journal: options.journal,
          context: { ...siteOptions, secretsTo: options.revealResetLinks ? 'result' : undefined },
        });
        if (fleet) {
          if (process.stdin.isTTY) process.stderr.write(`${STDIO_ON_TERMINAL}\n`);
          const patterns = abilityPatterns(options.abilities);
          const siteTools = patterns.length ? await abilityTools(fleet.sites.map((s) => s.context), patterns) : undefined;
          const { serveStdio } = await import('../mcp/index.js');
          return serveStdio(fleet, filter, { strict: Boolean(options.strict), approvals, siteTools });
        }
      }
      const auth = options.http ? authMode(options) : undefined;
      const port = options.port === undefined ? undefined : portFlag(options.port);
      // Sign-in mode needs only the site's address: each person brings their own account.
      const env = process.env;
      const urlOnly = auth === 'wordpress' && env.CMS_URL && !env.CMS_USERNAME && !env.CMS_APP_PASSWORD;
      if (urlOnly) checkSiteUrl(env.CMS_URL as string);
      const siteUrl = urlOnly ? (env.CMS_URL as string) : undefined;
      const site = siteUrl ? undefined : await resolveCliSiteConfig();
      // One journal for the site, shared by every signed-in person's context: entries name the user,
      // and each person lists and undoes only their own (undo/journal.ts: entriesOf).
      // With --store postgres://… the change store is there too (issue #49: replicas list and undo
      // each other's changes), unless --journal names another; CMS_STORE likewise (cliJournal).
      const pgStore = options.store && isPostgresUrl(options.store) ? options.store : undefined;
      const journalFile = cliJournal(options.journal ?? pgStore, siteUrl ?? (site as { url: string }).url);
      const journal = journalFile === 'off' ? 'off' : fileJournal(journalFile);
      const contextFor = (login: { username: string; appPassword: string }) =>
        createContext(
          { url: siteUrl ?? (site as { url: string }).url, ...login },
          { ...siteOptions, journal, secretsTo: options.revealResetLinks ? 'result' : undefined },
        );
      const context = site ? contextFor(site) : undefined;
      // Fail at start, on stderr, rather than on the first call: stdout belongs to the protocol.
      if (context) await context.client.connect();
      // A multisite network lists its network tools too, to a super admin (docs/multisite.md);
      // sign-in mode (no site context at start) asks per session (mcp/http.ts).
      if (context) filter.network = await networkToolsFor(context.client);
      // A site before WordPress 6.9 has no abilities: the toolset is absent, enable-toolset says why.
      if (context) filter.abilitiesApi = await hasAbilitiesApi(context.client);
      // --abilities: read from the site at start (its tools/list), each call resolved on the caller's own context.
      const patterns = abilityPatterns(options.abilities);
      if (patterns.length && !context) throw badFlag('--abilities reads the site at start: it needs CMS_USERNAME and CMS_APP_PASSWORD (not sign-in mode alone).');
      const siteTools = patterns.length && context ? await abilityTools([context], patterns) : undefined;
      const serverOptions = { strict: Boolean(options.strict), approvals, siteTools };
      if (options.http) {
        const [{ serveMcpHttp }, { openStore }] = await Promise.all([import('../mcp/http.js'), import('../mcp/store/index.js')]);
        const storeSpec = options.store ?? process.env.CMS_STORE;
        const rateLimit = options.rateLimit === undefined ? undefined : rateLimitFlag(options.rateLimit);
        if (rateLimit && auth !== 'wordpress') throw badFlag('--rate-limit limits the sign-in endpoints: it serves --auth wordpress.');
        const store = await openStore(storeSpec, auth === 'wordpress' ? (options.stateDir ?? defaultStateDir()) : undefined);
        const server = await serveMcpHttp(context, filter, serverOptions, {
          store,
          host: options.host,
          port,
          publicUrl: options.publicUrl,
          ...(auth === 'none'
            ? { noAuth: true }
            : auth === 'token'
            ? { token: bearerToken(options.tokenFile) }
            : {
                wordpress: {
                  siteUrl: siteUrl ?? (site as { url: string }).url,
                  stateDir: options.stateDir ?? defaultStateDir(),
                  allowLoopbackClientIds: Boolean(options.allowLoopbackClientIds),
                  rateLimit,
                  contextFor,
                },
              }),
        });
        process.stderr.write(`cms-admin mcp: serving MCP (Streamable HTTP) at ${server.url}\n`);
        return;
      }
      // Started by hand in a terminal, a stdio server would look hung: say what it waits for, on
      // stderr (stdout is the protocol's).
      if (process.stdin.isTTY) process.stderr.write(`${STDIO_ON_TERMINAL}\n`);
      const { serveStdio } = await import('../mcp/index.js');
      await serveStdio(context as NonNullable<typeof context>, filter, serverOptions);
    });
  registerMcpConfigCommand(mcp);
}

type McpOptions = FilterOptions & {
  sites?: string;
  abilities?: string;
  revealResetLinks?: boolean;
  strict?: boolean;
  yes?: boolean;
  approve?: string;
  http?: boolean;
  host?: string;
  port?: string;
  publicUrl?: string;
  tokenFile?: string;
  auth?: string;
  stateDir?: string;
  allowLoopbackClientIds?: boolean;
  store?: string;
  rateLimit?: string;
};

function defaultStateDir(): string {
  return path.join(stateHome(), 'cms-admin', 'mcp');
}

/** `--auth`, else token when one is configured (CMS_MCP_TOKEN or --token-file), else WordPress sign-in. */
function authMode(options: McpOptions): 'token' | 'wordpress' | 'none' {
  if (options.auth === 'token' || options.auth === 'wordpress' || options.auth === 'none') return options.auth;
  if (options.auth !== undefined) throw badFlag(`--auth takes wordpress, token or none, not "${options.auth}".`);
  return options.tokenFile || process.env.CMS_MCP_TOKEN ? 'token' : 'wordpress';
}

/** The bearer token of --http: from --token-file or CMS_MCP_TOKEN, never from the command line (ps shows it). */
function bearerToken(file: string | undefined): string {
  const token = (file ? readFileSync(file, 'utf8') : (process.env.CMS_MCP_TOKEN ?? '')).trim();
  if (!token) {
    throw badFlag(
      '--http needs a bearer token: set CMS_MCP_TOKEN or pass --token-file FILE (e.g. `openssl rand -hex 32 > token`).',
    );
  }
  return token;
}

/** `--approve a,b` as tool names; an unknown name stops the server before it starts. */
function approveList(names: string | undefined): string[] {
  const list = (names ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = list.filter((name) => !findTool(name));
  if (unknown.length)
    throw badFlag(`--approve: unknown tool(s) ${unknown.join(', ')}. Run \`cms-admin tools\` to list them.`);
  return list;
}

/** `--rate-limit n` (a minute) or `n/seconds`. */
function rateLimitFlag(raw: string): { limit: number; windowMs: number } {
  const m = /^(\d+)(?:\/(\d+))?$/.exec(raw.trim());
  const limit = Number(m?.[1]);
  const seconds = m?.[2] === undefined ? 60 : Number(m[2]);
  if (!m || limit < 1 || seconds < 1 || seconds > 86400)
    throw badFlag(`--rate-limit takes requests per minute (60) or requests/seconds (600/3600), not "${raw}".`);
  return { limit, windowMs: seconds * 1000 };
}

/** `--port`: 0 (any free port) to 65535; Node's own error for "abc" names no flag. */
function portFlag(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw badFlag(`--port takes a port number 0-65535 (it is "${raw}").`);
  return port;
}
