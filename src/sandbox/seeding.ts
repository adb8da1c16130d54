import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeCredentials } from './credentials.js';
import { installNetwork } from './network.js';
import { DB_NAME, sql } from './mariadb.js';
import type { InstancePaths } from './paths.js';
import { scriptsDir } from './paths.js';
import { loadSnapshot, snapshotMeta, writeSnapshot } from './snapshot.js';
import { updateState } from './state.js';
import type { SandboxCredentials } from './types.js';
import { siteUrl } from './wp-files.js';
import { runWpScript } from './wp-scripts.js';

/** The pristine database right after install; `site reset` restores it. */
export const INSTALLED = 'installed';
/** The database right after seeding; evals and tests restore it. */
export const SEEDED = 'seeded';
export const ADMIN_USER = 'admin';

/**
 * First start: install WordPress into an empty database (one PHP process),
 * create the admin's application password and keep the result as the
 * `installed` snapshot, so the app password survives every reset.
 */
export async function installInstance(inst: InstancePaths, port: number, network = false): Promise<SandboxCredentials> {
  inst.log('installing WordPress ...');
  await sql(
    inst,
    `DROP DATABASE IF EXISTS \`${DB_NAME}\`; CREATE DATABASE \`${DB_NAME}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
    null,
  );
  const adminPassword = randomBytes(18).toString('base64url');
  const out = await runWpScript<{ appPassword: string }>(inst, port, 'install.php', {
    CMS_SANDBOX_ADMIN_USER: ADMIN_USER,
    CMS_SANDBOX_ADMIN_EMAIL: 'admin@example.com',
    CMS_SANDBOX_ADMIN_PASSWORD: adminPassword,
  });
  const creds: SandboxCredentials = {
    url: siteUrl(port),
    username: ADMIN_USER,
    appPassword: out.appPassword,
    adminPassword,
  };
  // The admin's application password (user meta) is the network's: it works on every site.
  if (network) creds.network = { sites: await installNetwork(inst, port) };
  await writeCredentials(inst, creds);
  await writeSnapshot(inst, INSTALLED, { seeded: false });
  await updateState(inst, { installed: true, seeded: false });
  return creds;
}

/** Back to the just-installed database; captured mail is cleared too. */
export async function resetInstance(inst: InstancePaths): Promise<void> {
  await loadSnapshot(inst, INSTALLED);
  await writeFile(inst.mailLog, '');
  await updateState(inst, { seeded: false });
}

/** Identifies the dataset: a `seeded` snapshot made by other seed files is not reused. */
async function seedHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of ['seed.php', 'seed-data.php']) hash.update(await readFile(join(scriptsDir(), file)));
  return hash.digest('hex');
}

/**
 * Reset, then load the dataset with seed.php and save the `seeded` snapshot.
 * With `reuseSnapshot`, restore that snapshot instead when it was made by the
 * current seed.php (same data, a fraction of the time).
 */
export async function seedInstance(inst: InstancePaths, port: number, reuseSnapshot: boolean): Promise<void> {
  const hash = await seedHash();
  if (reuseSnapshot && (await snapshotMeta(inst, SEEDED))?.seedHash === hash) {
    await loadSnapshot(inst, SEEDED);
    await writeFile(inst.mailLog, '');
    await updateState(inst, { seeded: true });
    inst.log('seeded dataset restored from snapshot');
    return;
  }
  await resetInstance(inst);
  inst.log('seeding dataset ...');
  const summary = await runWpScript<Record<string, unknown>>(inst, port, 'seed.php');
  await writeSnapshot(inst, SEEDED, { seeded: true, seedHash: hash });
  await writeFile(inst.mailLog, '');
  await updateState(inst, { seeded: true });
  inst.log(`seeded: ${JSON.stringify(summary)}`);
}
