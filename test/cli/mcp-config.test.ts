import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { testSite, unique, wp } from '../helpers/site.js';

/**
 * `cms-admin mcp config claude-desktop|vscode|cursor` (issue #60.1): the printed config is started
 * exactly as a client would — its command, args and env, in `/` (Claude Desktop starts servers
 * there), with a fresh HOME and none of this shell's CMS_ settings — and a read tool answers from
 * the sandbox site. VS Code's `${input:…}` and Cursor's `${env:…}` are filled in as those clients do.
 */
type Server = { type?: string; command: string; args: string[]; env: Record<string, string> };
const dir = mkdtempSync(path.join(tmpdir(), 'cms-mcp-config-'));
/** The environment of a shell with no site settings (the test run's own CMS_ variables removed). */
const bare: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).map(([k, v]) => [k, k.startsWith('CMS_') ? undefined : v]));
/** The state and config folders this shell names (the test run sets them): the config carries them, so journals agree. */
const carried = Object.fromEntries(['XDG_STATE_HOME', 'XDG_CONFIG_HOME'].filter((k) => process.env[k]).map((k) => [k, path.resolve(process.env[k]!)]));

async function printed(args: string[], env: NodeJS.ProcessEnv): Promise<{ config: Record<string, unknown>; stdout: string; stderr: string }> {
  const result = await runCli(['mcp', 'config', ...args], { env: { ...bare, ...env }, cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  return { config: JSON.parse(result.stdout), stdout: result.stdout, stderr: result.stderr };
}

/** Starts the server as the client would: exactly command, args and env, from `/`, and lists and calls a read tool. */
async function startAndRead(server: Server): Promise<{ tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }>; total: number }> {
  const home = mkdtempSync(path.join(dir, 'home-'));
  const client = new Client({ name: 'mcp-config-test', version: '1.0.0' });
  const env: Record<string, string> = { ...getDefaultEnvironment(), HOME: home, ...server.env };
  for (const key of Object.keys(env)) if (key.startsWith('CMS_') && !(key in server.env)) delete env[key];
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env, cwd: '/', stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    const read = await client.callTool({ name: 'get-cms-tags', arguments: { limit: 1 } });
    expect(read.isError, JSON.stringify(read.content)).toBe(false);
    return { tools, total: JSON.parse((read.content as Array<{ text: string }>)[0]!.text).total };
  } finally {
    await client.close();
  }
}

const tagCount = () => wp().count('/wp/v2/tags', { hide_empty: false });

describe('cms-admin mcp config', () => {
  const site = testSite();
  const siteEnv = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword };
  const sitesFile = path.join(dir, 'sites.json');
  const profile = unique('shop').toLowerCase().replace(/[^a-z0-9-]/g, '-');

  beforeAll(async () => {
    const added = await runCli(['sites', 'add', profile, '--url', site.url, '--username', site.username, '--no-check'], {
      input: site.appPassword,
      env: { ...bare, CMS_SITES_FILE: sitesFile },
    });
    expect(added.code, added.stderr).toBe(0);
  });

  it('--help names the clients, the paths and how the site is named', async () => {
    const help = await runCli(['mcp', 'config', '--help']);
    expect(help.stdout).toMatch(/claude-desktop, vscode, cursor/);
    expect(help.stdout).toMatch(/absolute\s+path/);
    expect(help.stdout).toMatch(/--with-password/);
    expect((await runCli(['mcp', '--help'])).stdout).toMatch(/cms-admin mcp config claude-desktop\|vscode\|cursor/);
  });

  it('claude-desktop with a profile: this Node and this bin by absolute path, the profile by name, no password; it starts from / and reads the site', async () => {
    const { config, stdout } = await printed(['claude-desktop', '--site', profile], { CMS_SITES_FILE: sitesFile });
    const server = (config.mcpServers as Record<string, Server>).wordpress!;
    expect(path.isAbsolute(server.command)).toBe(true);
    const version = execFileSync(server.command, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim().split('.').map(Number);
    expect(version[0]! > 22 || (version[0] === 22 && version[1]! >= 13), version.join('.')).toBe(true);
    expect(server.args.slice(0, 2)).toEqual([realBin(), 'mcp']);
    expect(server.args.slice(2)).toEqual(['--site', profile]);
    expect(server.env).toEqual({ ...carried, CMS_SITES_FILE: sitesFile });
    expect(stdout).not.toContain(site.appPassword);
    expect((await startAndRead(server)).total).toBe(await tagCount());
  });

  it('vscode: "servers" with type stdio, the password a VS Code password input; flags after -- reach the server', async () => {
    const { config, stdout, stderr } = await printed(['vscode', '--name', 'wp', '--', '--read-only'], siteEnv);
    expect(config.inputs).toEqual([{ type: 'promptString', id: 'cms-app-password', description: expect.stringContaining(site.url), password: true }]);
    const server = (config.servers as Record<string, Server>).wp!;
    expect(server.type).toBe('stdio');
    expect(server.args.slice(1)).toEqual(['mcp', '--read-only']);
    expect(server.env).toEqual({ ...carried, CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: `\${input:cms-app-password}` });
    expect(`${stdout}${stderr}`).not.toContain(site.appPassword);
    // What VS Code does with the input: asks once, then puts the answer in its place.
    const started = await startAndRead({ ...server, env: { ...server.env, CMS_APP_PASSWORD: site.appPassword } });
    expect(started.total).toBe(await tagCount());
    expect(started.tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it('cursor: "mcpServers", the password from Cursor’s env interpolation', async () => {
    const { config, stdout } = await printed(['cursor'], siteEnv);
    const server = (config.mcpServers as Record<string, Server>).wordpress!;
    expect(server.env.CMS_APP_PASSWORD).toBe(`\${env:CMS_APP_PASSWORD}`);
    expect(stdout).not.toContain(site.appPassword);
    expect((await startAndRead({ ...server, env: { ...server.env, CMS_APP_PASSWORD: site.appPassword } })).total).toBe(await tagCount());
  });

  it('claude-desktop without a profile: a placeholder and how to do better; the password in clear only with --with-password', async () => {
    const { config, stderr } = await printed(['claude-desktop'], siteEnv);
    expect((config.mcpServers as Record<string, Server>).wordpress!.env.CMS_APP_PASSWORD).toBe('<the application password>');
    expect(stderr).toMatch(/cms-admin sites add NAME[\s\S]*--with-password/);
    // Asked for by the flag: printed (this output is not recorded for the run's secrets check, which it would fail by design).
    const { stdout } = await promisify(execFile)(process.execPath, [...cliArgs(), 'mcp', 'config', 'claude-desktop', '--with-password'], {
      cwd: dir,
      env: Object.fromEntries(Object.entries({ ...bare, ...siteEnv }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
    });
    const server = (JSON.parse(stdout).mcpServers as Record<string, Server>).wordpress!;
    expect(server.env.CMS_APP_PASSWORD).toBe(site.appPassword);
    expect((await startAndRead(server)).total).toBe(await tagCount());
  });

  it('an unknown client, or a profile that does not exist, is refused (exit 2) naming the fix', async () => {
    const unknown = await runCli(['mcp', 'config', 'zed'], { env: bare });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/claude-desktop, vscode, cursor/);
    const missing = await runCli(['mcp', 'config', 'cursor', '--site', 'nope'], { env: { ...bare, CMS_SITES_FILE: sitesFile } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No site profile "nope"/);
  });
});

/** The bin the test runs (the run's bundle), as the config names it. */
function realBin(): string {
  const bin = cliArgs().find((a) => a.endsWith('.js')) ?? path.join(REPO_ROOT, 'dist/cli/cms-admin.js');
  expect(existsSync(bin)).toBe(true);
  return bin;
}
