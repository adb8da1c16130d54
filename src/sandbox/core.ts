import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { aptEnv, aptUpdate, isRoot } from './apt.js';
import { run, runChecked } from './exec.js';
import type { SandboxLogger } from './types.js';

/** Written last, so a half-unpacked cache is never mistaken for a good one. */
const MARKER = 'READY.json';

export function coreWordPressDir(coreDir: string): string {
  return join(coreDir, 'wordpress');
}

export function coreReady(coreDir: string): boolean {
  return existsSync(join(coreDir, MARKER)) && existsSync(join(coreWordPressDir(coreDir), 'wp-settings.php'));
}

async function downloadDeb(tmp: string, log: SandboxLogger): Promise<string> {
  // `apt-get download` fetches the .deb without installing it: Debian's
  // `wordpress` package would otherwise pull in apache2 and friends.
  const args = ['download', 'wordpress'];
  // As root, apt drops privileges to _apt, which cannot write into our temp
  // dir; downloading as root avoids the noisy "unsandboxed" warning.
  if (isRoot()) args.unshift('-o', 'APT::Sandbox::User=root');
  log('downloading WordPress core (apt-get download wordpress) ...');
  let res = await run('apt-get', args, { cwd: tmp, env: aptEnv() });
  if (res.code !== 0 && isRoot()) {
    await aptUpdate(log);
    res = await run('apt-get', args, { cwd: tmp, env: aptEnv() });
  }
  if (res.code !== 0) {
    throw new Error(
      `apt-get download wordpress failed (${res.stderr.trim().split('\n').pop() ?? 'unknown error'}); ` +
        'run `sudo apt-get update` and retry',
    );
  }
  const deb = (await readdir(tmp)).find((f) => f.startsWith('wordpress_') && f.endsWith('.deb'));
  if (!deb) throw new Error('apt-get download wordpress produced no .deb file');
  return join(tmp, deb);
}

/** WordPress version from wp-includes/version.php (`$wp_version = '6.1.9';`). */
export async function wordPressVersion(wpDir: string): Promise<string> {
  const src = await readFile(join(wpDir, 'wp-includes', 'version.php'), 'utf8');
  return /\$wp_version\s*=\s*'([^']+)'/.exec(src)?.[1] ?? 'unknown';
}

/**
 * Cache WordPress core once per sandbox home, unpacked from Debian's
 * `wordpress` .deb (`dpkg-deb -x`, no maintainer scripts, no dependencies).
 */
export async function ensureCore(coreDir: string, log: SandboxLogger): Promise<void> {
  if (coreReady(coreDir)) return;
  await mkdir(coreDir, { recursive: true });
  const tmp = await mkdtemp(join(coreDir, 'tmp-'));
  try {
    const deb = await downloadDeb(tmp, log);
    const root = join(tmp, 'root');
    await runChecked('dpkg-deb', ['-x', deb, root]);
    const unpacked = join(root, 'usr', 'share', 'wordpress');
    // Debian's wp-config.php is a loader for /etc/wordpress/config-*.php and
    // .htaccess is a dangling symlink to /etc/wordpress/htaccess; each
    // instance writes its own config, and php -S ignores .htaccess anyway.
    await rm(join(unpacked, 'wp-config.php'), { force: true });
    await rm(join(unpacked, '.htaccess'), { force: true });
    const target = coreWordPressDir(coreDir);
    await rm(target, { recursive: true, force: true });
    await rename(unpacked, target);
    const version = await wordPressVersion(target);
    await writeFile(join(coreDir, MARKER), `${JSON.stringify({ version, deb: deb.split('/').pop() })}\n`);
    log(`WordPress ${version} cached in ${target}`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Give an instance its own WordPress tree in a few milliseconds: directories
 * are real, files are hard links into the core cache. Files we customise
 * (wp-config.php, mu-plugins) are always replaced via rename, never written
 * in place, so the shared inodes are never modified.
 */
export async function createWordPressDir(coreDir: string, wpDir: string): Promise<void> {
  if (existsSync(join(wpDir, 'wp-settings.php'))) return;
  await rm(wpDir, { recursive: true, force: true });
  await runChecked('cp', ['-al', coreWordPressDir(coreDir), wpDir]);
}
