import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmCommand, run } from '../../src/sandbox/exec.js';
import { nativeSystemProblem } from '../../src/sandbox/prerequisites.js';

/** A Node install laid out as its platform's installer does, with npm's own script in it. */
function nodeInstall(layout: 'windows' | 'unix'): { execPath: string; script: string } {
  const root = mkdtempSync(path.join(tmpdir(), `node-${layout}-`));
  const execPath = layout === 'windows' ? path.join(root, 'node.exe') : path.join(root, 'bin', 'node');
  const script =
    layout === 'windows'
      ? path.join(root, 'node_modules', 'npm', 'bin', 'npm-cli.js')
      : path.join(root, 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  mkdirSync(path.dirname(execPath), { recursive: true });
  mkdirSync(path.dirname(script), { recursive: true });
  writeFileSync(execPath, '');
  writeFileSync(script, '');
  return { execPath, script };
}

describe('running npm without a shell (the Playground install)', () => {
  it('runs npm-cli.js under this Node on Windows, never npm.cmd or the npm shell script on PATH', () => {
    const { execPath, script } = nodeInstall('windows');
    expect(npmCommand({}, execPath, 'win32')).toEqual({ cmd: execPath, args: [script] });
    // No npm beside Node: no guess at PATH's npm.cmd, which spawn() without a shell cannot run.
    const bare = mkdtempSync(path.join(tmpdir(), 'node-bare-'));
    expect(npmCommand({ PATH: process.env.PATH }, path.join(bare, 'node.exe'), 'win32')).toBeUndefined();
  });

  it('finds npm in a Unix install, and takes npm_execpath only when it is npm itself', () => {
    const { execPath, script } = nodeInstall('unix');
    expect(npmCommand({}, execPath, 'darwin')).toEqual({ cmd: execPath, args: [script] });
    const other = nodeInstall('unix');
    expect(npmCommand({ npm_execpath: other.script }, execPath, 'linux')).toEqual({ cmd: execPath, args: [other.script] });
    // Under npx (npx-cli.js) or pnpm, npm_execpath is not npm.
    const npx = path.join(path.dirname(other.script), 'npx-cli.js');
    writeFileSync(npx, '');
    expect(npmCommand({ npm_execpath: npx }, execPath, 'linux')).toEqual({ cmd: execPath, args: [script] });
  });

  it('the command found on this machine runs npm', async () => {
    const npm = npmCommand();
    expect(npm).toBeDefined();
    const res = await run(npm!.cmd, [...npm!.args, '--version']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('where the native backend can run', () => {
  it('macOS and Windows are sent to Playground with the reason, even with PHP and MariaDB installed', () => {
    expect(nativeSystemProblem('darwin', () => true)).toBe('the native backend runs on Linux (Debian or Ubuntu), not darwin');
    expect(nativeSystemProblem('win32', () => true)).toMatch(/runs on Linux .*not win32/);
  });

  it('a Linux without Debian packaging names what is missing; this Debian machine has no problem', () => {
    expect(nativeSystemProblem('linux', () => false)).toBe(
      "the native backend needs Debian's apt-get and dpkg-deb (Debian or Ubuntu) to fetch WordPress",
    );
    expect(nativeSystemProblem('linux', (binary) => binary !== 'dpkg-deb')).toMatch(/needs Debian's dpkg-deb \(/);
    expect(nativeSystemProblem()).toBeUndefined();
  });
});
