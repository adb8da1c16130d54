import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../helpers/cli-bin.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, unique, wp } from '../helpers/site.js';

// Issue #60, finding 7: the built bin, on PATH through a symlink (the README's `ln -s` advice),
// run by a Node without node:sqlite (this machine's own Node 20). Reads work; a write and every
// command that opens the change store say which Node they need and how to get one — not "disk
// space, permissions" — before anything is written (chat, mcp, undo, changes: before any request).
/** node:sqlite is built in without a flag from Node 22.13 (and 23.4): https://nodejs.org/api/sqlite.html */
function lacksSqlite(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return !(major > 23 || (major === 22 && minor >= 13) || (major === 23 && minor >= 4));
}

const oldNode = ['/usr/bin/node', '/usr/local/bin/node', ...(process.env.PATH ?? '').split(':').map((d) => path.join(d, 'node'))]
  .filter((file) => !file.includes('node_modules') && existsSync(file))
  .find((file) => {
    const version = spawnSync(file, ['-v'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    return Boolean(version) && lacksSqlite(version);
  });

let proxy: FaultProxy;
let bin: string;

beforeAll(async () => {
  proxy = await new FaultProxy(testSite().url).start();
  // On PATH as the README says: a symlink to the bundle.
  const folder = mkdtempSync(path.join(tmpdir(), 'cms-bin-old-node-'));
  bin = path.join(folder, 'cms-admin');
  symlinkSync(cliArgs()[0]!, bin);
});

afterAll(async () => {
  await proxy.stop();
});

/** The bin on the old Node, started as a person's shell would (async: the proxy answers in this process). */
async function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const site = testSite();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CMS_URL: proxy.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'cms-old-node-state-')),
    NO_COLOR: '1',
  };
  const child = spawn(oldNode!, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  recordOutput(stdout);
  recordOutput(stderr);
  return { code, stdout, stderr };
}

describe.skipIf(!oldNode || !cliArgs()[0]?.endsWith('.js'))('the bin on a Node without node:sqlite (#60.7)', () => {
  it(`is this machine's Node older than 22.13: ${oldNode}`, () => {
    expect(lacksSqlite(execFileSync(oldNode!, ['-v'], { encoding: 'utf8' }).trim().slice(1))).toBe(true);
  });

  it('reads; a write is refused before it is made, naming the Node it needs and how to get it', async () => {
    expect((await run('invoke', 'get-cms-tags', 'limit=1', '--format', 'count')).stdout.trim()).toMatch(/^\d+$/);
    const name = unique('Old node');
    const since = proxy.events.length;
    const wrote = await run('invoke', 'create-tag', `name=${name}`);
    expect(wrote.code).toBe(1);
    const { error } = JSON.parse(wrote.stdout);
    expect(error.code).toBe('node_too_old');
    expect(error.message).toContain('needs Node 22.13 or newer');
    expect(error.hint).toContain(`npx -y -p node@24 -- node ${bin}`);
    expect(error.hint).not.toMatch(/disk space|permissions/);
    expect(proxy.count('POST', /tags/, since)).toBe(0);
    expect(await wp().get('/wp/v2/tags', { search: name })).toEqual([]);
  });

  it('changes, undo, chat and mcp say it at their start, before any request', async () => {
    for (const args of [['changes'], ['undo', '--dry-run'], ['chat', '--once', 'hi'], ['mcp']]) {
      const since = proxy.events.length;
      const said = await run(...args);
      expect(said.code, args.join(' ')).toBe(1);
      expect(said.stderr, args.join(' ')).toContain('needs Node 22.13 or newer (22 or 24). (node_too_old)');
      expect(said.stderr).toContain('hint: Run it on Node 22.13 or newer');
      expect(proxy.events.length - since, args.join(' ')).toBe(0);
    }
    // Without the store, nothing to say: --journal off.
    expect((await run('changes', '--journal', 'off')).stderr).not.toContain('node_too_old');
  });
});
