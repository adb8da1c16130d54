import { ConfigError } from '../config-error.js';

/**
 * The WordPress versions the sandbox runs, each from Debian's archive: the
 * `wordpress` package of one suite. https://packages.debian.org/search?keywords=wordpress
 */
export const WP_VERSIONS = {
  '6.1': { suite: 'bookworm' },
  '6.8': { suite: 'trixie' },
  '7.1': { suite: 'sid' },
} as const;

export type WpVersion = keyof typeof WP_VERSIONS;

export const SUPPORTED_WP = Object.keys(WP_VERSIONS) as WpVersion[];

/** The version a new instance gets when neither --wp nor CMS_SANDBOX_WP says otherwise. */
export const DEFAULT_WP: WpVersion = '7.1';

function isSupported(v: string): v is WpVersion {
  return Object.hasOwn(WP_VERSIONS, v);
}

/** "7.1" (or "7.1.4", which names the same branch) → "7.1"; anything else lists the supported ones. */
export function parseWpVersion(raw: string, source = '--wp'): WpVersion {
  const branch = /^(\d+\.\d+)(?:\.\d+)?$/.exec(raw.trim())?.[1] ?? raw.trim();
  if (!isSupported(branch)) {
    throw new ConfigError(
      `unsupported WordPress version ${JSON.stringify(raw)} (from ${source}); supported: ${SUPPORTED_WP.join(', ')}`,
      'invalid_config',
    );
  }
  return branch;
}

/** The explicitly requested version (option, then env CMS_SANDBOX_WP), or undefined. */
export function requestedWp(option: string | undefined): WpVersion | undefined {
  if (option) return parseWpVersion(option, '--wp');
  const env = process.env.CMS_SANDBOX_WP;
  return env ? parseWpVersion(env, 'CMS_SANDBOX_WP') : undefined;
}

/** The branch ("7.1") of a full version ("7.1.4"). */
export function branchOf(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}
