import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { aptEnv, isRoot } from './apt.js';
import { findBinary, run, runChecked } from './exec.js';
import type { SandboxLogger } from './types.js';
import { WP_VERSIONS, type WpVersion } from './versions.js';

const MIRROR = 'http://deb.debian.org/debian';

/**
 * apt options that make one `apt-get` call use a sources list and package
 * lists of our own (one suite), leaving the system's apt configuration and
 * state untouched. https://manpages.debian.org/apt.conf
 */
function aptOptions(aptDir: string): string[] {
  const opts = [
    ['Dir::Etc::SourceList', join(aptDir, 'sources.list')],
    ['Dir::Etc::SourceParts', '/dev/null'],
    ['Dir::State::Lists', join(aptDir, 'lists')],
    ['Dir::Cache', join(aptDir, 'cache')],
    // As root, apt drops privileges to _apt, which cannot write into our dirs.
    ...(isRoot() ? [['APT::Sandbox::User', 'root']] : []),
  ];
  return opts.flatMap(([k, v]) => ['-o', `${k}=${v}`]);
}

/** The line of apt's output that names the failure (apt prints summaries after it). */
const lastLine = (s: string) => {
  const lines = s.trim().split('\n');
  return lines.find((l) => /Failed to fetch|Unable to|Could not|^E:/.test(l))?.trim() || lines.pop() || 'no output';
};

/** The themes a `wordpress` .deb recommends (`wordpress-theme-twentytwentyfive` → `twentytwentyfive`). */
export function recommendedThemes(recommends: string): string[] {
  return recommends
    .split(',')
    .flatMap((alt) => alt.split('|'))
    .map((p) => /^\s*wordpress-theme-([a-z0-9-]+)/.exec(p)?.[1])
    .filter((t): t is string => Boolean(t));
}

/**
 * Download Debian's `wordpress` .deb of one suite into `dir`, with the theme packages it
 * recommends (the default theme: `apt-get install wordpress` brings it too, and WordPress's
 * install makes it the active theme; without it every request finds the theme missing and
 * rewrites the theme-patterns cache, and the front page is empty). `apt-get download` fetches
 * without installing: the package would otherwise pull in apache2 and friends.
 * Returns the .debs' paths, `wordpress` first.
 */
export async function downloadWordPressDebs(wp: WpVersion, dir: string, log: SandboxLogger): Promise<string[]> {
  const { suite } = WP_VERSIONS[wp];
  const retry = `check that ${MIRROR} is reachable (proxy, network) and run \`cms-admin site up --wp ${wp}\` again`;
  if (!findBinary('apt-get')) {
    throw new Error(
      `cannot fetch WordPress ${wp}: apt-get not found (the native sandbox needs Debian or Ubuntu); use \`cms-admin site up --backend playground\``,
    );
  }
  const aptDir = join(dir, 'apt');
  await mkdir(join(aptDir, 'lists', 'partial'), { recursive: true });
  await mkdir(join(aptDir, 'cache', 'archives', 'partial'), { recursive: true });
  const keyring = '/usr/share/keyrings/debian-archive-keyring.gpg';
  const signedBy = existsSync(keyring) ? ` [signed-by=${keyring}]` : '';
  await writeFile(join(aptDir, 'sources.list'), `deb${signedBy} ${MIRROR} ${suite} main\n`);
  const opts = aptOptions(aptDir);
  log(`fetching the package list of Debian ${suite} (for WordPress ${wp}) ...`);
  const update = await run('apt-get', [...opts, 'update'], { env: aptEnv() });
  // apt-get update exits 0 on some fetch failures and only warns ("W: Failed to fetch").
  if (update.code !== 0 || /^(E|W): Failed to fetch/m.test(update.stderr)) {
    throw new Error(`cannot fetch Debian ${suite}'s package list for WordPress ${wp} (${lastLine(update.stderr)}); ${retry}`);
  }
  log(`downloading WordPress ${wp} (apt-get download wordpress/${suite}) ...`);
  const res = await run('apt-get', [...opts, 'download', `wordpress/${suite}`], { cwd: dir, env: aptEnv() });
  if (res.code !== 0) {
    throw new Error(`cannot download Debian ${suite}'s wordpress package (${lastLine(res.stderr)}); ${retry}`);
  }
  const deb = (await readdir(dir)).find((f) => f.startsWith('wordpress_') && f.endsWith('.deb'));
  if (!deb) throw new Error(`apt-get download wordpress/${suite} produced no .deb file; ${retry}`);
  const themes = recommendedThemes((await runChecked('dpkg-deb', ['-f', join(dir, deb), 'Recommends'])).stdout);
  if (themes.length === 0) return [join(dir, deb)];
  const names = themes.map((t) => `wordpress-theme-${t}/${suite}`);
  log(`downloading its default theme (apt-get download ${names.join(' ')}) ...`);
  const themeRes = await run('apt-get', [...opts, 'download', ...names], { cwd: dir, env: aptEnv() });
  if (themeRes.code !== 0) {
    throw new Error(`cannot download Debian ${suite}'s ${names.join(', ')} (${lastLine(themeRes.stderr)}); ${retry}`);
  }
  const themeDebs = (await readdir(dir)).filter((f) => f.startsWith('wordpress-theme-') && f.endsWith('.deb'));
  return [join(dir, deb), ...themeDebs.map((f) => join(dir, f))];
}
