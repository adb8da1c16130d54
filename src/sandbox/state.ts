import { randomBytes } from 'node:crypto';
import { readJson, writeJson } from './files.js';
import type { InstancePaths } from './paths.js';
import type { SandboxState } from './types.js';

export async function readState(inst: InstancePaths): Promise<SandboxState> {
  return (await readJson<SandboxState>(inst.stateFile)) ?? {};
}

export async function updateState(inst: InstancePaths, patch: Partial<SandboxState>): Promise<SandboxState> {
  const next = { ...(await readState(inst)), ...patch };
  await writeJson(inst.stateFile, next);
  return next;
}

/** Per-instance secrets that are not credentials for the toolkit (mode 0600). */
export interface InstanceSecrets {
  dbPassword: string;
  /** AUTH_KEY, SECURE_AUTH_KEY, ... for wp-config.php, fixed for the instance's lifetime. */
  salts: Record<string, string>;
}

const SALT_NAMES = [
  'AUTH_KEY',
  'SECURE_AUTH_KEY',
  'LOGGED_IN_KEY',
  'NONCE_KEY',
  'AUTH_SALT',
  'SECURE_AUTH_SALT',
  'LOGGED_IN_SALT',
  'NONCE_SALT',
] as const;

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

export async function ensureSecrets(inst: InstancePaths): Promise<InstanceSecrets> {
  const existing = await readJson<InstanceSecrets>(inst.secretsFile);
  if (existing) return existing;
  const secrets: InstanceSecrets = {
    dbPassword: token(18),
    salts: Object.fromEntries(SALT_NAMES.map((n) => [n, token(48)])),
  };
  await writeJson(inst.secretsFile, secrets, 0o600);
  return secrets;
}
