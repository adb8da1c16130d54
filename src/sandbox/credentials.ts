import { readJson, writeJson } from './files.js';
import type { InstancePaths } from './paths.js';
import { resolveInstance } from './paths.js';
import type { SandboxCredentials, SandboxOptions } from './types.js';

/** Credentials of an installed instance, or null if it was never installed. */
export async function readCredentials(opts: SandboxOptions = {}): Promise<SandboxCredentials | null> {
  return (await readJson<SandboxCredentials>(resolveInstance(opts).credentialsFile)) ?? null;
}

export async function writeCredentials(inst: InstancePaths, creds: SandboxCredentials): Promise<void> {
  await writeJson(inst.credentialsFile, creds, 0o600);
}

/** dotenv quoting only when needed (WordPress app passwords are plain [A-Za-z0-9]). */
const dotenvValue = (v: string) => (/^[\w@%+=:,./-]*$/.test(v) ? v : JSON.stringify(v));

/** The dotenv lines the toolkit reads: CMS_URL, CMS_USERNAME, CMS_APP_PASSWORD. */
export function envLines(creds: SandboxCredentials): string[] {
  const lines = [
    `CMS_URL=${dotenvValue(creds.url)}`,
    `CMS_USERNAME=${dotenvValue(creds.username)}`,
    `CMS_APP_PASSWORD=${dotenvValue(creds.appPassword)}`,
  ];
  if (!creds.network) return lines;
  // Comments, so the lines still load as dotenv: a network's sites, each its own REST root;
  // CMS_USERNAME is the network's super admin and its password works on every site.
  return [
    `# Multisite network (subdirectories): ${creds.network.sites.length} sites; ${creds.username} is a super admin`,
    ...creds.network.sites.map((s) => `#   ${(s.slug || 'main').padEnd(8)} ${s.url}  (CMS_URL=${s.url} for this site)`),
    ...lines,
  ];
}
