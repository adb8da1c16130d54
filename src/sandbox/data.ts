import { INSTALLED, resetInstance, seedInstance } from './seeding.js';
import { ensureRunning } from './site.js';
import { loadSnapshot, writeSnapshot } from './snapshot.js';
import { readState, updateState } from './state.js';
import type { SandboxOptions } from './types.js';

export interface SeedOptions extends SandboxOptions {
  /** Restore the `seeded` snapshot instead of re-running seed.php when it is current. Default false. */
  reuseSnapshot?: boolean;
}

/** Back to a fresh, empty WordPress install (the `installed` snapshot); the admin app password keeps working. */
export async function siteReset(opts: SandboxOptions = {}): Promise<void> {
  const { inst } = await ensureRunning(opts);
  await resetInstance(inst);
  inst.log(`sandbox "${inst.name}" reset to a fresh install`);
}

/** Reset, then load the deterministic dataset (scripts/sandbox/seed.php) and save the `seeded` snapshot. */
export async function siteSeed(opts: SeedOptions = {}): Promise<void> {
  const { inst, port } = await ensureRunning(opts);
  await seedInstance(inst, port, opts.reuseSnapshot ?? false);
}

/** Save the current database as snapshot `label` (a-z, 0-9, _). */
export async function saveSnapshot(opts: SandboxOptions, label: string): Promise<void> {
  if (label === INSTALLED) throw new Error(`snapshot "${INSTALLED}" is reserved for \`site reset\``);
  const { inst } = await ensureRunning(opts);
  await writeSnapshot(inst, label, { seeded: Boolean((await readState(inst)).seeded) });
  inst.log(`snapshot "${label}" saved`);
}

/** Replace the database with snapshot `label`. */
export async function restoreSnapshot(opts: SandboxOptions, label: string): Promise<void> {
  const { inst } = await ensureRunning(opts);
  const meta = await loadSnapshot(inst, label);
  await updateState(inst, { seeded: meta.seeded });
  inst.log(`snapshot "${label}" restored`);
}
