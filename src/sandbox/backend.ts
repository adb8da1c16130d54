import { existsSync } from 'node:fs';
import { ConfigError } from '../config-error.js';
import type { InstancePaths } from './paths.js';
import { playgroundUnavailable } from './playground-cli.js';
import { nativeSystemProblem, nativeUnavailable } from './prerequisites.js';
import { readState } from './state.js';

export type Backend = 'native' | 'playground';
const CHOICES = ['auto', 'native', 'playground'] as const;

/** The backend an instance already has: it keeps it, like its WordPress version. */
export async function existingBackend(inst: InstancePaths): Promise<Backend | undefined> {
  const state = await readState(inst);
  if (state.backend) return state.backend;
  return existsSync(inst.dataDir) ? 'native' : undefined;
}

/**
 * --backend / CMS_SANDBOX_BACKEND: native (PHP + MariaDB), playground (WordPress Playground's
 * CLI), or auto: native where PHP and MariaDB are or can be installed, Playground otherwise.
 */
export async function chooseBackend(inst: InstancePaths, option: string | undefined): Promise<Backend> {
  const raw = option ?? process.env.CMS_SANDBOX_BACKEND ?? 'auto';
  if (!(CHOICES as readonly string[]).includes(raw)) {
    const source = option === undefined ? ' (from CMS_SANDBOX_BACKEND)' : '';
    throw new ConfigError(`unknown sandbox backend ${JSON.stringify(raw)}${source}; use one of ${CHOICES.join(', ')}`, 'invalid_config');
  }
  const have = await existingBackend(inst);
  if (have) {
    if (raw !== 'auto' && raw !== have) {
      throw new Error(`sandbox "${inst.name}" uses the ${have} backend; use another --name for ${raw}`);
    }
    return have;
  }
  if (raw === 'native') {
    // Fail here, not halfway through starting MariaDB; missing packages are handled (apt) later.
    const system = nativeSystemProblem();
    if (system) throw new Error(`${system}; use \`--backend playground\` (or auto)`);
  }
  if (raw !== 'auto') return raw as Backend;
  const native = await nativeUnavailable();
  if (!native) {
    inst.log('backend: native (PHP and MariaDB are here or installable with apt)');
    return 'native';
  }
  const playground = playgroundUnavailable();
  if (playground) throw new Error(`no sandbox backend can run here: native: ${native}; playground: ${playground}`);
  inst.log(`backend: playground (native is unavailable: ${native})`);
  return 'playground';
}
