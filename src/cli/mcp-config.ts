import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../config.js';
import { packageRoot } from '../package-root.js';
import { profileSite } from './site-config.js';
import { sandboxHome } from '../sandbox/paths.js';
import { profilesPath } from '../sites/store.js';
import { badFlag } from './shared.js';

/**
 * `cms-admin mcp config claude-desktop|vscode|cursor` (issue #60.1): the client's config for this
 * server, started by absolute paths (this Node, this cms-admin), so it runs from whatever folder
 * the client starts it in — Claude Desktop starts servers in `/`, where `npx cms-admin` would ask
 * the registry for a package of that name. The site goes by name: a profile (`--site`, the
 * profiles file's path), the sandbox's home, or CMS_URL/CMS_USERNAME with the application password
 * asked by the client (VS Code's password input, Cursor's `${env:…}`) — in clear only with
 * `--with-password`. The formats: Claude Desktop's `claude_desktop_config.json` (`mcpServers`),
 * VS Code's `mcp.json` (`servers`, `type: "stdio"`, `inputs`:
 * https://code.visualstudio.com/docs/copilot/reference/mcp-configuration), Cursor's `mcp.json`
 * (`mcpServers`, `${env:NAME}` interpolation: https://cursor.com/docs/context/mcp).
 */
export const MCP_CLIENTS = ['claude-desktop', 'vscode', 'cursor'] as const;
type McpClient = (typeof MCP_CLIENTS)[number];

/** Settings the server reads that are not the site's: carried over when set here (never a secret). */
const CARRIED = ['CMS_JOURNAL', 'CMS_AUDIT_LOG', 'CMS_TIMEOUT_MS', 'CMS_ANSWER_BUDGET', 'CMS_ALLOW_INSECURE_HTTP', 'XDG_STATE_HOME', 'XDG_CONFIG_HOME'];
const PASSWORD_INPUT = 'cms-app-password';
const MIN_NODE = [22, 13] as const;

export interface ClientConfig {
  config: Record<string, unknown>;
  /** What the person should know (stderr): where the file goes, what was left out and why. */
  notes: string[];
}

export function mcpClientConfig(
  client: McpClient,
  options: { name: string; withPassword?: boolean; serverFlags?: string[]; node: string; bin: string },
  env: NodeJS.ProcessEnv = process.env,
): ClientConfig {
  const args = [options.bin, 'mcp', ...(options.serverFlags ?? [])];
  const vars: Record<string, string> = {};
  const notes: string[] = [];
  const inputs: Array<Record<string, unknown>> = [];
  for (const key of CARRIED) if (env[key]) vars[key] = absoluteIfPath(key, env[key] as string);
  const profile = profileSite(env); // throws naming the profiles file when CMS_SITE names no profile
  if (profile) {
    args.push('--site', profile.name as string);
    vars.CMS_SITES_FILE = path.resolve(profilesPath(env));
    notes.push(`The site: the profile ${profile.name} (${profile.url}), its password in ${vars.CMS_SITES_FILE} (0600); none in this config.`);
  } else if (env.CMS_URL) {
    vars.CMS_URL = env.CMS_URL;
    if (env.CMS_USERNAME) vars.CMS_USERNAME = env.CMS_USERNAME;
    if (options.withPassword && env.CMS_APP_PASSWORD) {
      vars.CMS_APP_PASSWORD = env.CMS_APP_PASSWORD;
      notes.push('This config holds the application password in clear (--with-password): keep the file private (chmod 600).');
    } else if (client === 'vscode') {
      vars.CMS_APP_PASSWORD = `\${input:${PASSWORD_INPUT}}`;
      inputs.push({ type: 'promptString', id: PASSWORD_INPUT, description: `Application password of ${env.CMS_USERNAME ?? 'the user'} on ${env.CMS_URL}`, password: true });
      notes.push('VS Code asks for the application password when it first starts the server and keeps it in its secret storage.');
    } else if (client === 'cursor') {
      vars.CMS_APP_PASSWORD = `\${env:CMS_APP_PASSWORD}`;
      notes.push('Cursor fills CMS_APP_PASSWORD from its own environment: start Cursor where CMS_APP_PASSWORD is set.');
    } else {
      vars.CMS_APP_PASSWORD = '<the application password>';
      notes.push(
        'Claude Desktop cannot ask for a secret: save a profile instead (printf %s "$CMS_APP_PASSWORD" | cms-admin sites add NAME --url URL --username USER)',
        'and print this again with --site NAME, or add --with-password to write the password here in clear.',
      );
    }
  } else {
    vars.CMS_SANDBOX_HOME = path.resolve(sandboxHome(env));
    vars.CMS_SANDBOX_NAME = env.CMS_SANDBOX_NAME?.trim() || 'site';
    notes.push(`The site: the local sandbox ${vars.CMS_SANDBOX_NAME} in ${vars.CMS_SANDBOX_HOME} (cms-admin site up --seed starts it).`);
  }
  const server = { command: options.node, args, env: vars };
  notes.push(`Put it in ${WHERE[client]}.`);
  if (client === 'vscode') return { config: { ...(inputs.length && { inputs }), servers: { [options.name]: { type: 'stdio', ...server } } }, notes };
  return { config: { mcpServers: { [options.name]: server } }, notes };
}

const WHERE: Record<McpClient, string> = {
  'claude-desktop':
    'claude_desktop_config.json (Settings → Developer → Edit Config: ~/Library/Application Support/Claude/ on macOS, %APPDATA%\\Claude\\ on Windows), under "mcpServers"',
  vscode: '.vscode/mcp.json of a workspace, or your user mcp.json (MCP: Open User Configuration), under "servers" (and "inputs")',
  cursor: '~/.cursor/mcp.json (every project) or .cursor/mcp.json of a project, under "mcpServers"',
};

function absoluteIfPath(key: string, value: string): string {
  return /JOURNAL|LOG|HOME/.test(key) && !value.includes('://') && value !== 'off' ? path.resolve(value) : value;
}

/** A Node ≥ 22.13 by absolute path: the one running, else this checkout's `node` dev dependency. */
export function serverNode(): string {
  if (atLeast(process.versions.node)) return process.execPath;
  const local = path.join(packageRoot(), 'node_modules', 'node', 'bin', 'node');
  if (existsSync(local)) {
    const version = execFileSync(local, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    if (atLeast(version)) return local;
  }
  throw new ConfigError(
    `The MCP server needs Node ${MIN_NODE.join('.')} or newer; this is ${process.version}. Run this command with a newer Node (e.g. nvm install 22, or in a checkout npm install, whose node dev dependency is Node 22), and the config names it.`,
    'invalid_config',
  );
}

const atLeast = (version: string) => {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
};

/** This cms-admin's built bin by absolute path (the one running, or the checkout's dist/ after `npm run build`). */
export function serverBin(): string {
  const running = process.argv[1] ? realpathSync(process.argv[1]) : '';
  if (running.endsWith('.js')) return running;
  const built = path.join(packageRoot(), 'dist', 'cli', 'cms-admin.js');
  if (existsSync(built)) return built;
  throw new ConfigError(`No build of cms-admin in ${packageRoot()}: run \`npm run build\` there first (the config starts dist/cli/cms-admin.js).`, 'invalid_config');
}

export function registerMcpConfigCommand(mcp: Command): void {
  mcp
    .command('config')
    .description('Print the config of an MCP client (claude-desktop, vscode, cursor) that starts this server from any folder')
    .argument('<client>', MCP_CLIENTS.join(', '))
    .argument('[mcp-flags...]', 'after --: flags for the server, e.g. -- --read-only --toolsets all')
    .option('--name <key>', "the server's name in the config", 'wordpress')
    .option('--with-password', 'without a profile: write the application password into the config in clear (default: the client asks, or a placeholder)')
    .addHelpText(
      'after',
      `
Prints JSON on stdout (notes on stderr): the command is this Node and this cms-admin by absolute
path (Node ${MIN_NODE.join('.')}+: the one running this, else the checkout's node dev dependency),
so the client can start it from any folder — never npx, which outside a checkout asks the npm
registry for a package named cms-admin. The site by name, from the same settings as every command:
  --site NAME / CMS_SITE    the profile: "--site NAME" and CMS_SITES_FILE (its password stays in that 0600 file)
  CMS_URL, CMS_USERNAME     the password: VS Code asks (an "inputs" password), Cursor reads
                            \${env:CMS_APP_PASSWORD}, Claude Desktop gets a placeholder; --with-password writes it
  neither                   the local sandbox: CMS_SANDBOX_HOME and CMS_SANDBOX_NAME
Examples:
  cms-admin mcp config claude-desktop --site shop
  cms-admin mcp config vscode -- --read-only
  cms-admin mcp config cursor --name wp-staging --site staging -- --toolsets all
Formats: Claude Desktop and Cursor {"mcpServers": {…}}; VS Code {"servers": {NAME: {"type": "stdio", …}}}.
docs/remote-mcp.md, "On this machine".`,
    )
    .action(async (client: string, flags: string[], options: { name: string; withPassword?: boolean }) => {
      if (!(MCP_CLIENTS as readonly string[]).includes(client)) throw badFlag(`Unknown MCP client "${client}": ${MCP_CLIENTS.join(', ')}.`);
      if (flags.some((f) => ['--http', '--site', '--sites'].includes(f)))
        throw badFlag('mcp config is for stdio on this machine, one site: give --site before --, and see docs/remote-mcp.md for --http.');
      const { config, notes } = mcpClientConfig(client as McpClient, { ...options, serverFlags: flags, node: serverNode(), bin: serverBin() });
      process.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
      process.stderr.write(`${notes.join('\n')}\n`);
    });
}
