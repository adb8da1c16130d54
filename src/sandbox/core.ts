import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { withCoreLock } from './core-lock.js';
import { downloadWordPressDebs } from './debian-archive.js';
import { runChecked } from './exec.js';
import { readJson, writeJson } from './files.js';
import type { SandboxLogger } from './types.js';
import { branchOf, type WpVersion } from './versions.js';

/** Written last, so a half-unpacked cache is never mistaken for a good one. */
const MARKER = 'READY.json';

interface CoreMarker {
  version: string;
  deb: string;
  /** The themes unpacked beside it (the ones the .deb recommends); absent in caches made before themes were. */
  themes?: string[];
  files: number;
  /** sha256 over every path, type and size: a missing, added or truncated file changes it. */
  digest: string;
}

/** `<home>/core/<branch>`: one cache per WordPress version, never shared between versions. */
export function versionCoreDir(coreRoot: string, wp: WpVersion): string {
  return join(coreRoot, wp);
}

export function coreWordPressDir(coreDir: string): string {
  return join(coreDir, 'wordpress');
}

/** WordPress version from wp-includes/version.php (`$wp_version = '6.1.9';`). */
export async function wordPressVersion(wpDir: string): Promise<string> {
  const src = await readFile(join(wpDir, 'wp-includes', 'version.php'), 'utf8');
  return /\$wp_version\s*=\s*'([^']+)'/.exec(src)?.[1] ?? 'unknown';
}

async function treeDigest(dir: string): Promise<{ files: number; digest: string }> {
  const hash = createHash('sha256');
  let files = 0;
  const walk = async (d: string): Promise<void> => {
    const entries = (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        await walk(p);
        continue;
      }
      const st = await lstat(p);
      hash.update(`${relative(dir, p)}\0${e.isSymbolicLink() ? 'l' : 'f'}\0${st.size}\n`);
      files += 1;
    }
  };
  await walk(dir);
  return { files, digest: hash.digest('hex') };
}

/** Why the cache of `wp` in `coreDir` cannot be used, or undefined when it is complete. */
export async function coreProblem(coreDir: string, wp: WpVersion): Promise<string | undefined> {
  const marker = await readJson<CoreMarker>(join(coreDir, MARKER)).catch(() => undefined);
  if (!marker?.digest) return existsSync(coreDir) ? 'incomplete (no READY.json)' : 'not downloaded yet';
  if (!marker.themes) return 'made without its default theme (an older cache)';
  const target = coreWordPressDir(coreDir);
  if (!existsSync(join(target, 'wp-settings.php'))) return 'wp-settings.php missing';
  const version = await wordPressVersion(target).catch(() => 'unreadable');
  if (branchOf(version) !== wp) return `holds WordPress ${version}, not ${wp}`;
  const now = await treeDigest(target);
  if (now.digest !== marker.digest) return `files changed since it was unpacked (${now.files} files, ${marker.files} expected)`;
  return undefined;
}

const verified = new Set<string>();

/**
 * Cache WordPress `wp` once per sandbox home, unpacked from Debian's
 * `wordpress` .deb (`dpkg-deb -x`: no maintainer scripts, no dependencies).
 * A partial or altered cache is detected and rebuilt, never used.
 */
export async function ensureCore(coreDir: string, wp: WpVersion, log: SandboxLogger): Promise<string> {
  const target = coreWordPressDir(coreDir);
  if (verified.has(coreDir) && existsSync(join(coreDir, MARKER))) return wordPressVersion(target);
  // Outside the lock the tree may be changing under another process's fill: a file gone while it
  // is read is a problem to look at again under the lock, not an error.
  const problem = await coreProblem(coreDir, wp).catch((err: Error) => `being changed (${err.message})`);
  if (!problem) {
    verified.add(coreDir);
    return wordPressVersion(target);
  }
  await mkdir(dirname(coreDir), { recursive: true });
  return withCoreLock(coreDir, () => fillCore(coreDir, wp, log));
}

/** ensureCore's fill, under the cache's lock: another process may have filled it meanwhile. */
async function fillCore(coreDir: string, wp: WpVersion, log: SandboxLogger): Promise<string> {
  const target = coreWordPressDir(coreDir);
  const problem = await coreProblem(coreDir, wp);
  if (!problem) {
    verified.add(coreDir);
    return wordPressVersion(target);
  }
  if (problem !== 'not downloaded yet') log(`WordPress ${wp} cache in ${coreDir} is unusable (${problem}); rebuilding`);
  await rm(join(coreDir, MARKER), { force: true });
  await mkdir(coreDir, { recursive: true });
  const tmp = await mkdtemp(join(coreDir, 'tmp-'));
  try {
    const [deb = '', ...themeDebs] = await downloadWordPressDebs(wp, tmp, log);
    const root = join(tmp, 'root');
    for (const file of [deb, ...themeDebs]) await runChecked('dpkg-deb', ['-x', file, root]);
    const unpacked = join(root, 'usr', 'share', 'wordpress');
    // Debian's wp-config.php is a loader for /etc/wordpress/config-*.php and
    // .htaccess is a dangling symlink to /etc/wordpress/htaccess; each
    // instance writes its own config, and php -S ignores .htaccess anyway.
    await rm(join(unpacked, 'wp-config.php'), { force: true });
    await rm(join(unpacked, '.htaccess'), { force: true });
    const version = await wordPressVersion(unpacked);
    if (branchOf(version) !== wp) {
      throw new Error(
        `Debian's package for WordPress ${wp} now holds WordPress ${version}; update this toolkit for a sandbox of that version`,
      );
    }
    await rm(target, { recursive: true, force: true });
    await rename(unpacked, target);
    const themes = (await readdir(join(target, 'wp-content', 'themes'))).sort();
    const tree = await treeDigest(target);
    await writeJson(join(coreDir, MARKER), { version, deb: deb.split('/').pop() ?? '', themes, ...tree } satisfies CoreMarker);
    verified.add(coreDir);
    log(`WordPress ${version} cached in ${target}${themes.length ? ` (theme: ${themes.join(', ')})` : ''}`);
    return version;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Give an instance its own WordPress tree in a few milliseconds: directories
 * are real, files are hard links into the core cache. Files we customise
 * (wp-config.php, mu-plugins) are always replaced via rename, never written
 * in place, so the shared inodes are never modified. The copy is made next to
 * its place and renamed, so an interrupted copy is never taken for a tree.
 */
export async function createWordPressDir(coreDir: string, wpDir: string): Promise<void> {
  if (existsSync(join(wpDir, 'wp-settings.php'))) return addMissingThemes(coreDir, wpDir);
  const tmp = `${wpDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await runChecked('cp', ['-al', coreWordPressDir(coreDir), tmp]);
  await rm(wpDir, { recursive: true, force: true });
  await rename(tmp, wpDir);
}

/**
 * An instance made before the core cache held its default theme gets the theme now (hard links
 * again, made beside it and renamed); a theme the instance already has is left as it is.
 */
async function addMissingThemes(coreDir: string, wpDir: string): Promise<void> {
  const from = join(coreWordPressDir(coreDir), 'wp-content', 'themes');
  const to = join(wpDir, 'wp-content', 'themes');
  const themes = await readdir(from).catch(() => [] as string[]);
  for (const theme of themes) {
    if (existsSync(join(to, theme))) continue;
    await mkdir(to, { recursive: true });
    const tmp = join(to, `.${theme}.tmp-${process.pid}`);
    await rm(tmp, { recursive: true, force: true });
    await runChecked('cp', ['-al', join(from, theme), tmp]);
    await rename(tmp, join(to, theme));
  }
}
