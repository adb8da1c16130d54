import { readdirSync } from 'node:fs';
import { run, runChecked } from './exec.js';
import type { SandboxLogger } from './types.js';

/** Debian 12 packages the sandbox needs (no web server, no full mariadb-server). */
export const APT_PACKAGES = [
  'php8.2-cli',
  'php8.2-mysql',
  'php8.2-xml',
  'php8.2-mbstring',
  'mariadb-server-core',
  'mariadb-client-core',
] as const;

export const APT_COMMAND = `sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${APT_PACKAGES.join(' ')}`;

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function aptEnv(): NodeJS.ProcessEnv {
  return { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
}

function aptListsPresent(): boolean {
  try {
    return readdirSync('/var/lib/apt/lists').some((f) => f.includes('_Packages'));
  } catch {
    return false;
  }
}

export async function aptUpdate(log: SandboxLogger): Promise<void> {
  log('apt-get update ...');
  await runChecked('apt-get', ['update'], { env: aptEnv() });
}

/** Install `packages` (default APT_PACKAGES); runs `apt-get update` first only when no package lists exist or the install fails. */
export async function aptInstall(log: SandboxLogger, packages: readonly string[] = APT_PACKAGES): Promise<void> {
  if (!aptListsPresent()) await aptUpdate(log);
  const args = ['install', '-y', '--no-install-recommends', ...packages];
  log(`apt-get install ${packages.join(' ')} ...`);
  const first = await run('apt-get', args, { env: aptEnv() });
  if (first.code === 0) return;
  // Stale package lists are the usual cause ("Unable to locate package"); refresh once.
  await aptUpdate(log);
  await runChecked('apt-get', args, { env: aptEnv() });
}
