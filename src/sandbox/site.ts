import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createWordPressDir, versionCoreDir, wordPressVersion } from './core.js';
import { readCredentials, writeCredentials } from './credentials.js';
import {
  bootstrapDatabase,
  dataDirReady,
  initDataDir,
  mariadbPid,
  startMariadb,
  stopMariadb,
  writeClientCnf,
} from './mariadb.js';
import { type InstancePaths, resolveInstance } from './paths.js';
import { phpLog, phpPid, portInUse, startPhpServer, stopPhpServer, waitForRest } from './php-server.js';
import { chooseBackend, existingBackend } from './backend.js';
import { playgroundDown, playgroundPid, playgroundSiteUp } from './playground.js';
import { ensurePrerequisites } from './prerequisites.js';
import { checkNetworkPort, instanceNetwork } from './network.js';
import { installInstance, seedInstance } from './seeding.js';
import { ensureSecrets, readState, updateState } from './state.js';
import type { SandboxCredentials, SandboxOptions, SandboxStatus } from './types.js';
import { branchOf, DEFAULT_WP, parseWpVersion, requestedWp, type WpVersion } from './versions.js';
import { installMuPlugins, siteUrl, writeWpConfig } from './wp-files.js';

export interface UpOptions extends SandboxOptions {
  /** Load the seed dataset (from the `seeded` snapshot when it is current). */
  seed?: boolean;
}

/** An explicit or env port wins; otherwise an instance keeps the port it last ran on. */
async function effectivePort(inst: InstancePaths): Promise<number> {
  if (inst.portSource !== 'default') return inst.port;
  return (await readState(inst)).port ?? inst.port;
}

/** Port of the instance if both its servers are alive, else undefined. */
async function runningPort(inst: InstancePaths): Promise<number | undefined> {
  if (!(await phpPid(inst)) || !(await mariadbPid(inst))) return undefined;
  return (await readState(inst)).port;
}

/** WordPress version of the instance's own files ("7.1.4"), if it has them. */
async function installedVersion(inst: InstancePaths): Promise<string | undefined> {
  if (!existsSync(join(inst.wpDir, 'wp-settings.php'))) return undefined;
  return wordPressVersion(inst.wpDir).catch(() => undefined);
}

/**
 * An instance keeps the version it was created with (its files and database
 * belong to it); --wp / CMS_SANDBOX_WP choose the version of a new instance.
 */
async function instanceWp(inst: InstancePaths, option: string | undefined): Promise<WpVersion> {
  const requested = requestedWp(option);
  const have = await installedVersion(inst);
  if (!have) return requested ?? DEFAULT_WP;
  const branch = branchOf(have);
  if (requested && requested !== branch) {
    throw new Error(
      `sandbox "${inst.name}" runs WordPress ${have} and cannot switch to ${requested}; ` +
        `use another name (e.g. --name ${inst.name}-${requested.replace('.', '')}) or delete ${inst.dir}`,
    );
  }
  return parseWpVersion(branch, inst.wpDir);
}

async function tail(file: string, lines = 8): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function startServers(inst: InstancePaths, port: number, wp: WpVersion, network: boolean): Promise<SandboxCredentials> {
  await mkdir(inst.runDir, { recursive: true, mode: 0o700 });
  await mkdir(inst.logsDir, { recursive: true });
  const secrets = await ensureSecrets(inst);
  await createWordPressDir(versionCoreDir(inst.coreDir, wp), inst.wpDir);
  const freshDb = !dataDirReady(inst);
  if (freshDb) {
    inst.log('initialising MariaDB data directory ...');
    await initDataDir(inst);
  }
  const installed = Boolean((await readState(inst)).installed);
  if (network) await checkNetworkPort(inst, port);
  await writeWpConfig(inst, secrets, port, network && installed);
  await installMuPlugins(inst);
  await startMariadb(inst);
  if (freshDb) await bootstrapDatabase(inst, secrets);
  else if (!existsSync(inst.clientCnf)) await writeClientCnf(inst, secrets);

  let creds = await readCredentials(inst);
  if (!installed || !creds) {
    creds = await installInstance(inst, port, network);
  } else if (creds.url !== siteUrl(port)) {
    creds = { ...creds, url: siteUrl(port) };
    await writeCredentials(inst, creds);
  }

  const pid = await startPhpServer(inst, port, network);
  try {
    await waitForRest(creds.url, pid);
  } catch (err) {
    await stopPhpServer(inst);
    throw new Error(`${(err as Error).message}; php log (${phpLog(inst)}):\n${await tail(phpLog(inst))}`);
  }
  await updateState(inst, { port, wordpress: await installedVersion(inst) });
  return creds;
}

/**
 * Start the instance (installing prerequisites, WordPress and the database on
 * first use) and return its credentials once GET /wp-json/ answers. Returns at
 * once if it is already running.
 */
export async function siteUp(opts: UpOptions = {}): Promise<SandboxCredentials> {
  const inst = resolveInstance(opts);
  const wp = await instanceWp(inst, opts.wp);
  const network = await instanceNetwork(inst, opts.multisite);
  if ((await chooseBackend(inst, opts.backend)) === 'playground') {
    if (network) throw new Error('a multisite network needs the native backend (PHP + MariaDB); use --backend native');
    return playgroundSiteUp(inst, wp, Boolean(opts.seed));
  }
  const running = await runningPort(inst);
  let creds: SandboxCredentials | null;
  let port: number;
  if (running !== undefined) {
    if (inst.portSource === 'option' && inst.port !== running) {
      throw new Error(
        `sandbox "${inst.name}" is already running on port ${running}; run \`site down\` first to move it to ${inst.port}`,
      );
    }
    creds = await readCredentials(inst);
    if (!creds)
      throw new Error(
        `sandbox "${inst.name}" is running but ${inst.credentialsFile} is missing; run \`site down\` and \`site up\``,
      );
    port = running;
    inst.log(`WordPress ${(await installedVersion(inst)) ?? wp} already running at ${creds.url}`);
  } else {
    await ensurePrerequisites(opts, wp);
    // Half-running (one server crashed, or a stale php worker): start clean.
    await stopServers(inst);
    port = await effectivePort(inst);
    if (await portInUse(port)) {
      throw new Error(`port ${port} is already in use on 127.0.0.1; pick another with --port or CMS_SANDBOX_PORT`);
    }
    creds = await startServers(inst, port, wp, network);
    inst.log(`WordPress ${(await installedVersion(inst)) ?? wp} ready at ${creds.url} (user ${creds.username}; \`site env\` prints the credentials)`);
  }
  if (opts.seed) await seedInstance(inst, port, true);
  return creds;
}

async function stopServers(inst: InstancePaths): Promise<void> {
  // php first: no request should find the database gone.
  await stopPhpServer(inst);
  await stopMariadb(inst);
}

/** Stop the instance's php -S process group and MariaDB, and wait until they are gone. */
export async function siteDown(opts: SandboxOptions = {}): Promise<void> {
  const inst = resolveInstance(opts);
  if ((await existingBackend(inst)) === 'playground') await playgroundDown(inst);
  else await stopServers(inst);
  inst.log(`sandbox "${inst.name}" stopped`);
}

export async function siteStatus(opts: SandboxOptions = {}): Promise<SandboxStatus> {
  const inst = resolveInstance(opts);
  const backend = (await existingBackend(inst)) ?? 'native';
  const running = backend === 'playground' ? (await playgroundPid(inst)) && (await readState(inst)).port : await runningPort(inst);
  const state = await readState(inst);
  const port = running ?? (await effectivePort(inst));
  return {
    running: running !== undefined,
    url: siteUrl(port),
    port,
    dir: inst.dir,
    name: inst.name,
    home: inst.home,
    installed: Boolean(state.installed),
    seeded: Boolean(state.seeded),
    wordpress: (await installedVersion(inst)) ?? state.wordpress,
    backend,
    ...(state.network ? { network: true } : {}),
  };
}

/** Bring the instance up if needed; returns its paths and port. For the data operations. */
export async function ensureRunning(opts: SandboxOptions): Promise<{ inst: InstancePaths; port: number }> {
  const inst = resolveInstance(opts);
  if ((await existingBackend(inst)) === 'playground') {
    throw new Error(`sandbox "${inst.name}" runs on Playground: reset, seed and snapshots need the native backend`);
  }
  let port = await runningPort(inst);
  if (port === undefined) {
    await siteUp(opts);
    port = await runningPort(inst);
    if (port === undefined) throw new Error(`sandbox "${inst.name}" failed to start`);
  }
  return { inst, port };
}
