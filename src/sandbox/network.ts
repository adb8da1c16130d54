import { mkdir } from 'node:fs/promises';
import type { InstancePaths } from './paths.js';
import { ensureSecrets, readState, updateState } from './state.js';
import type { NetworkSite } from './types.js';
import { writeWpConfig } from './wp-files.js';
import { runWpScript } from './wp-scripts.js';

/**
 * Subdirectory multisite networks (`site up --multisite`, docs/multisite.md). An instance is a
 * network from its first install on, as it keeps its WordPress version: its database holds the
 * network tables and every site's URL.
 */
export async function instanceNetwork(inst: InstancePaths, requested: boolean | undefined): Promise<boolean> {
  const state = await readState(inst);
  if (state.installed) {
    if (requested && !state.network) {
      throw new Error(
        `sandbox "${inst.name}" is a single site and cannot become a network; use another name (e.g. --name ${inst.name}-ms) or delete ${inst.dir}`,
      );
    }
    return Boolean(state.network);
  }
  if (requested) {
    await mkdir(inst.dir, { recursive: true });
    await updateState(inst, { network: true });
  }
  return Boolean(requested || state.network);
}

/**
 * A network's port is part of every site's address (wp_blogs.domain, each site's home and
 * siteurl), so it stays on the port it was installed on rather than rewriting them.
 */
export async function checkNetworkPort(inst: InstancePaths, port: number): Promise<void> {
  const state = await readState(inst);
  if (state.network && state.installed && state.port !== undefined && state.port !== port) {
    throw new Error(
      `sandbox "${inst.name}" is a network installed on port ${state.port} (its sites' URLs hold the port); start it with --port ${state.port}`,
    );
  }
}

/**
 * After install.php: make the single site a network (install-network.php), switch wp-config.php
 * to MULTISITE, then create the three sites and their users (seed-network.php).
 */
export async function installNetwork(inst: InstancePaths, port: number): Promise<NetworkSite[]> {
  inst.log('making the site a subdirectory network ...');
  await runWpScript(inst, port, 'install-network.php');
  await writeWpConfig(inst, await ensureSecrets(inst), port, true);
  const out = await runWpScript<{ sites: NetworkSite[] }>(inst, port, 'seed-network.php');
  await updateState(inst, { network: true, port });
  inst.log(`network sites: ${out.sites.map((s) => s.url).join(', ')}`);
  return out.sites;
}
