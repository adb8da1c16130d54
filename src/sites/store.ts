import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config-error.js';
import { withProfilesLock } from './profiles-lock.js';

/**
 * Site profiles (issue #38): one file per person, `$XDG_CONFIG_HOME/cms-admin/sites.json`,
 * mode 0600 (it holds application passwords), rewritten whole through a temp file and a
 * rename, so a crash leaves the old file or the new one, never half of one.
 */
export interface SiteProfile {
  name: string;
  url: string;
  username: string;
  appPassword: string;
  /** Groups it belongs to, selected as `@group`. */
  groups: string[];
  /** A site of a multisite network added with `sites add NAME` (docs/fleets.md): NAME, also its group. */
  network?: string;
  /** The library's `sites` option only (`sites add` never saves it): plain http to another machine allowed. */
  allowInsecureHttp?: boolean;
}

export interface ProfilesFile {
  version: 1;
  sites: SiteProfile[];
}

/** The user's config folder, as the XDG base directories define it. */
export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
}

/** `~/.config/cms-admin/sites.json`, or CMS_SITES_FILE. */
export function profilesPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CMS_SITES_FILE || path.join(configHome(env), 'cms-admin', 'sites.json');
}

/** Names are typed on command lines and in `--sites a,b`: no commas, no `@`, not `all`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/;

export function checkName(name: string, what = 'site name'): void {
  if (!NAME.test(name) || name === 'all') {
    throw new ConfigError(
      `"${name}" is not a usable ${what}: letters, digits, . _ - / (up to 63, starting with a letter or digit), not "all".`,
      'invalid_config',
    );
  }
}

/** The profiles; none when the file does not exist. A damaged file is said, with its path. */
export function readProfiles(file = profilesPath()): ProfilesFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, sites: [] };
    throw err;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`The site profiles file ${file} is not valid JSON; fix or remove it.`, 'invalid_config');
  }
  const sites = (data as ProfilesFile | undefined)?.sites;
  if (!Array.isArray(sites) || !sites.every(isProfile)) {
    throw new ConfigError(`The site profiles file ${file} has an unexpected shape; fix or remove it.`, 'invalid_config');
  }
  return { version: 1, sites: sites.map((s) => ({ ...s, groups: s.groups ?? [] })) };
}

function isProfile(value: unknown): value is SiteProfile {
  const s = value as Record<string, unknown> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    ['name', 'url', 'username', 'appPassword'].every((key) => typeof s[key] === 'string') &&
    (s.groups === undefined || (Array.isArray(s.groups) && s.groups.every((g) => typeof g === 'string'))) &&
    (s.network === undefined || typeof s.network === 'string')
  );
}

/**
 * Writes the whole file (callers that read it first hold withProfilesLock, so no change is lost): a private temp file beside it (0600 from its creation, so the
 * passwords are never readable by others, not even for a moment), flushed, then renamed over it.
 */
export function writeProfiles(data: ProfilesFile, file = profilesPath()): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, 0o600); // a umask cannot loosen it, but an odd filesystem might
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

export function findProfile(data: ProfilesFile, name: string): SiteProfile | undefined {
  return data.sites.find((s) => s.name === name);
}

/**
 * Adds a profile, or replaces the one by that name when `replace`; false (nothing written) when
 * one by that name (or a network of that name) exists and `replace` is false: decided under the
 * lock, so of two `sites add NAME` at once the second is told, not silently the winner.
 */
export function putProfile(profile: SiteProfile, file = profilesPath(), replace = true): boolean {
  return withProfilesLock(file, () => {
    const data = readProfiles(file);
    if (!replace && (findProfile(data, profile.name) || data.sites.some((s) => s.network === profile.name))) return false;
    const sites = data.sites.filter((s) => s.name !== profile.name);
    writeProfiles({ version: 1, sites: [...sites, profile] }, file);
    return true;
  });
}

/** Removes a profile; false when there was none by that name. */
export function removeProfile(name: string, file = profilesPath()): boolean {
  return withProfilesLock(file, () => {
    const data = readProfiles(file);
    const sites = data.sites.filter((s) => s.name !== name);
    if (sites.length === data.sites.length) return false;
    writeProfiles({ version: 1, sites }, file);
    return true;
  });
}

/** Saves a network's profiles in one write: drops those `drop` names (the old network, clashing names) first. */
export function putProfiles(profiles: readonly SiteProfile[], drop: (s: SiteProfile) => boolean, file = profilesPath()): void {
  withProfilesLock(file, () => {
    const data = readProfiles(file);
    writeProfiles({ version: 1, sites: [...data.sites.filter((s) => !drop(s)), ...profiles] }, file);
  });
}

/** Removes every profile of network `name` (`sites remove NAME`); the names removed, none when it is not a network. */
export function removeNetwork(name: string, file = profilesPath()): string[] {
  return withProfilesLock(file, () => {
    const data = readProfiles(file);
    const gone = data.sites.filter((s) => s.network === name).map((s) => s.name);
    if (gone.length) writeProfiles({ version: 1, sites: data.sites.filter((s) => s.network !== name) }, file);
    return gone;
  });
}

/** What a login error on a profile's site tells the person to fix (WordPressClientOptions.credentialsFrom). */
export function profileCredentialsFrom(name: string, network?: string): string {
  // A network's site profiles were saved together: adding the network again replaces them all.
  const again = network ?? name;
  return `the username and application password of site profile "${name}" (\`cms-admin sites add ${again} --replace …\` replaces them${network ? ` for every site of network ${network}` : ''})`;
}
