import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './cli.js';

/** Runs a command; its output, or an error with its stderr (npm's and node's messages). */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stderr || e.stdout || e.message}`);
  }
}

/** `run` without blocking: the package test runs its independent installs and compiles side by side. */
export function runAsync(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { cwd, encoding: 'utf8' as const, env: { ...process.env, npm_config_update_notifier: 'false', ...env }, maxBuffer: 64 * 1024 * 1024 };
    execFile(cmd, args, options, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${stderr || stdout || err.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * `npm pack` of this checkout (its prepack builds dist/): the tarball's path. Once per test run:
 * the package files that install it (pack.test.ts, peer-floors.test.ts) share one tarball in the
 * run's folder, so dist/ is never rebuilt by two workers at once and the build is paid once. The
 * first caller packs (a folder made with mkdir is the claim); the others wait for its answer.
 */
export async function packTarball(): Promise<string> {
  const runDir = process.env.CMS_TEST_RUN_TMP;
  if (!runDir) return packNow(mkdtempSync(path.join(tmpdir(), 'cms-pack-')));
  const dir = path.join(runDir, 'pack');
  const answer = path.join(dir, 'tarball.json');
  try {
    mkdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another file of this run packs: its answer (a path, or the error) is written when it is done.
    for (let i = 0; i < 6000 && !existsSync(answer); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!existsSync(answer)) throw new Error(`the run's npm pack (${dir}) gave no answer in 10 minutes`);
    const { tarball, error } = JSON.parse(readFileSync(answer, 'utf8')) as { tarball?: string; error?: string };
    if (!tarball) throw new Error(`the run's npm pack failed: ${error}`);
    return tarball;
  }
  let result: { tarball?: string; error?: string };
  try {
    result = { tarball: packNow(dir) };
  } catch (err) {
    result = { error: (err as Error).message };
  }
  writeFileSync(`${answer}.tmp`, JSON.stringify(result));
  renameSync(`${answer}.tmp`, answer);
  if (!result.tarball) throw new Error(result.error);
  return result.tarball;
}

function packNow(dir: string): string {
  run('npm', ['pack', '--silent', '--pack-destination', dir], REPO_ROOT);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball in ${dir}`);
  return path.join(dir, tarball);
}

/** The version of a package this checkout installed: apps get the same, from npm's cache. */
export function repoVersion(name: string): string {
  return JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** A new app folder with its package.json (`type` as given), and `npm install` of `packages` (npm's cache takes parallel installs). */
export async function newApp(name: string, type: 'module' | 'commonjs', packages: string[]): Promise<string> {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'cms-app-')), name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  await runAsync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...packages], dir);
  return dir;
}

/** Every package npm installed into an app (nested ones included), and their size on disk in bytes. */
export function installed(app: string): { packages: number; bytes: number } {
  const lines = run('npm', ['ls', '--all', '--parseable'], app).trim().split('\n').slice(1);
  const bytes = Number(run('du', ['-sb', path.join(app, 'node_modules')], app).split('\t')[0]);
  return { packages: new Set(lines).size, bytes };
}

/** The ```ts blocks of a markdown file, in order. */
export function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] as string);
}

/**
 * A README snippet as a CommonJS module: its imports stay on top (TypeScript turns them into
 * require calls), the rest runs in an async function, since CommonJS has no top-level await.
 */
export function asCommonJs(block: string): string {
  const lines = block.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  return `${imports.join('\n')}\nasync function main(): Promise<void> {\n${body.join('\n')}\n}\nmain().catch((err: unknown) => { console.error(err); process.exit(1); });\n`;
}
