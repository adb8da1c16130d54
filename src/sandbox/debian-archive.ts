import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { aptEnv, isRoot } from './apt.js';
import { findBinary, run } from './exec.js';
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

/**
 * Download Debian's `wordpress` .deb of one suite into `dir` (`apt-get
 * download` fetches without installing: the package would otherwise pull in
 * apache2 and friends). Returns the .deb's path.
 */
export async function downloadWordPressDeb(wp: WpVersion, dir: string, log: SandboxLogger): Promise<string> {
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
  return join(dir, deb);
}
