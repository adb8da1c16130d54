import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { npmCommand, run } from './exec.js';
import type { SandboxLogger } from './types.js';

/**
 * WordPress Playground's CLI (PHP compiled to WebAssembly), GPL-2.0: never a
 * dependency of this package, installed on demand into a cache folder of its
 * own at a pinned version. Versions after 3.1.54 need Node >= 24.18; this one
 * runs on Node 20. https://www.npmjs.com/package/@wp-playground/cli
 */
export const PLAYGROUND_CLI = '@wp-playground/cli';
export const PLAYGROUND_CLI_VERSION = '3.1.54';
const MIN_NODE = 20;

const NATIVE_ROUTE =
  'or use the native backend (`cms-admin site up --backend native`: Debian/Ubuntu with PHP 8.2 and MariaDB)';

export function playgroundCliDir(): string {
  return (
    process.env.CMS_PLAYGROUND_DIR ||
    join(homedir(), '.cache', 'cms-admin-toolkit', 'playground-cli', PLAYGROUND_CLI_VERSION)
  );
}

function entryOf(dir: string): string {
  return join(dir, 'node_modules', '@wp-playground', 'cli', 'wp-playground.js');
}

/** Why Playground cannot run here, or undefined. */
export function playgroundUnavailable(): string | undefined {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < MIN_NODE) return `Node ${process.versions.node} is too old for ${PLAYGROUND_CLI}@${PLAYGROUND_CLI_VERSION} (needs Node ${MIN_NODE}+)`;
  if (!existsSync(join(playgroundCliDir(), 'READY')) && !npmCommand()) return 'npm was not found (beside Node or on PATH) to install it';
  return undefined;
}

/** Path of the CLI's entry script, installing the pinned version first if needed (~580 MB, once). */
export async function ensurePlaygroundCli(log: SandboxLogger): Promise<string> {
  const dir = playgroundCliDir();
  const entry = entryOf(dir);
  if (existsSync(join(dir, 'READY')) && existsSync(entry)) return entry;
  const why = playgroundUnavailable();
  if (why) throw new Error(`cannot run WordPress Playground: ${why}; ${NATIVE_ROUTE}`);
  await mkdir(dir, { recursive: true });
  log(`installing ${PLAYGROUND_CLI}@${PLAYGROUND_CLI_VERSION} into ${dir} (once, ~580 MB) ...`);
  const npm = npmCommand();
  if (!npm) throw new Error(`cannot install ${PLAYGROUND_CLI}: npm was not found (beside Node or on PATH); ${NATIVE_ROUTE}`);
  const res = await run(
    npm.cmd,
    [...npm.args, 'install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `${PLAYGROUND_CLI}@${PLAYGROUND_CLI_VERSION}`],
    { cwd: dir },
  );
  if (res.code !== 0 || !existsSync(entry)) {
    const line =
      res.stderr
        .split('\n')
        .filter((l) => /^npm (ERR!|error) (code|errno|network|request|\d{3})/.test(l) || /FetchError/.test(l))
        .slice(0, 2)
        .map((l) => l.replace(/^npm (ERR!|error) /, '').trim())
        .join('; ') || `npm exited ${res.code}`;
    throw new Error(
      `cannot install ${PLAYGROUND_CLI}@${PLAYGROUND_CLI_VERSION} (${line}); it needs the npm registry once (check network/proxy and retry), ${NATIVE_ROUTE}`,
    );
  }
  await writeFile(join(dir, 'READY'), `${PLAYGROUND_CLI}@${PLAYGROUND_CLI_VERSION}\n`);
  return entry;
}
