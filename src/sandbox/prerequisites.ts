import { APT_COMMAND, aptInstall, isRoot } from './apt.js';
import { ensureCore, versionCoreDir } from './core.js';
import { findBinary, run } from './exec.js';
import { resolveInstance } from './paths.js';
import type { SandboxOptions } from './types.js';
import { DEFAULT_WP, type WpVersion } from './versions.js';

const BINARIES = ['php', 'mariadbd', 'mariadb-install-db', 'mariadb'] as const;
const PHP_EXTENSIONS = ['mysqli', 'mbstring', 'dom', 'xml'] as const;

let toolsVerified = false;

async function missingTools(): Promise<string[]> {
  const missing: string[] = BINARIES.filter((b) => !findBinary(b));
  const php = findBinary('php');
  if (php) {
    const list = PHP_EXTENSIONS.map((e) => `'${e}'`).join(',');
    const res = await run(php, ['-r', `foreach ([${list}] as $e) if (!extension_loaded($e)) echo "php-$e\\n";`]);
    missing.push(...res.stdout.split('\n').filter(Boolean));
  }
  return missing;
}

/**
 * Why the native backend cannot run on this kind of system, or undefined: it reads /proc, uses
 * Unix sockets and unpacks Debian's `wordpress` package with apt-get and dpkg-deb, so PHP and
 * MariaDB from Homebrew (macOS) or another Linux's packages are not enough.
 */
export function nativeSystemProblem(
  platform: NodeJS.Platform = process.platform,
  has: (binary: string) => boolean = (binary) => Boolean(findBinary(binary)),
): string | undefined {
  if (platform !== 'linux') return `the native backend runs on Linux (Debian or Ubuntu), not ${platform}`;
  const tools = ['apt-get', 'dpkg-deb'].filter((binary) => !has(binary));
  if (tools.length) return `the native backend needs Debian's ${tools.join(' and ')} (Debian or Ubuntu) to fetch WordPress`;
  return undefined;
}

/** Why the native backend cannot run here (wrong system, tools missing and not installable), or undefined. */
export async function nativeUnavailable(): Promise<string | undefined> {
  const system = nativeSystemProblem();
  if (system) return system;
  if (toolsVerified) return undefined;
  const missing = await missingTools();
  if (missing.length === 0) return undefined;
  if (isRoot()) return undefined;
  return `${missing.join(', ')} missing and not running as root to install them`;
}

/**
 * Make sure PHP (with mysqli/mbstring/xml), MariaDB and the cached WordPress
 * core of version `wp` are available. As root, installs what is missing with
 * apt; otherwise throws an error with the exact command to run. Returns the
 * full WordPress version ("7.1.4").
 */
export async function ensurePrerequisites(opts: SandboxOptions = {}, wp: WpVersion = DEFAULT_WP): Promise<string> {
  const inst = resolveInstance(opts);
  if (!toolsVerified) {
    const missing = await missingTools();
    if (missing.length > 0) {
      if (!isRoot()) throw new Error(`missing ${missing.join(', ')}; install them with: ${APT_COMMAND}`);
      inst.log(`missing ${missing.join(', ')}; installing apt packages`);
      await aptInstall(inst.log);
      const still = await missingTools();
      if (still.length > 0) throw new Error(`still missing after apt-get install: ${still.join(', ')}`);
    }
    toolsVerified = true;
  }
  return ensureCore(versionCoreDir(inst.coreDir, wp), wp, inst.log);
}
