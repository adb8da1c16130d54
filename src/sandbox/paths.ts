import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { packageRoot } from '../package-root.js';
import { ConfigError } from '../config-error.js';
import type { SandboxLogger, SandboxOptions } from './types.js';

export { packageRoot };

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
// sun_path in sockaddr_un is 108 bytes on Linux; stay well below it.
// https://man7.org/linux/man-pages/man7/unix.7.html
const MAX_SOCKET_PATH = 100;

/** Directory holding router.php, install.php, seed.php and the mu-plugin. */
export function scriptsDir(): string {
  return join(packageRoot(), 'scripts', 'sandbox');
}

/** Absolute path of the companion plugin entry file (may not exist yet). */
export function companionPluginFile(): string {
  return join(packageRoot(), 'plugin', 'cms-admin-companion', 'cms-admin-companion.php');
}

export interface InstancePaths {
  home: string;
  name: string;
  port: number;
  /** Where `port` came from: the caller, env CMS_SANDBOX_PORT, or the built-in default. */
  portSource: 'option' | 'env' | 'default';
  log: SandboxLogger;
  coreDir: string;
  dir: string;
  wpDir: string;
  dataDir: string;
  runDir: string;
  /** MariaDB's own temp folder: a server starting removes every `#sql*` file in its tmpdir, so
   *  instances sharing /tmp deleted each other's temp tables (mariadb-install-db "Error on delete"). */
  tmpDir: string;
  socket: string;
  dbPidFile: string;
  phpPidFile: string;
  logsDir: string;
  stateFile: string;
  credentialsFile: string;
  secretsFile: string;
  clientCnf: string;
  snapshotsFile: string;
  mailLog: string;
}

const defaultLog: SandboxLogger = (line) => {
  process.stderr.write(`[sandbox] ${line}\n`);
};

function parsePort(raw: string | number | undefined, source: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const port = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigError(`invalid port ${JSON.stringify(raw)} (from ${source}); expected an integer 1-65535`, 'invalid_config');
  }
  return port;
}

/**
 * Where sandboxes live: one home per person, the XDG data folder
 * ($XDG_DATA_HOME/cms-admin/sandbox, default ~/.local/share/cms-admin/sandbox), whatever the
 * current folder, unless CMS_SANDBOX_HOME says otherwise (#52.5).
 */
export function sandboxHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CMS_SANDBOX_HOME) return env.CMS_SANDBOX_HOME;
  const data = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(data, 'cms-admin', 'sandbox');
}

export function resolveInstance(opts: SandboxOptions = {}): InstancePaths {
  const home = resolve(opts.home ?? sandboxHome());
  const name = opts.name || process.env.CMS_SANDBOX_NAME?.trim() || 'site';
  if (!NAME_RE.test(name) || name === 'core') {
    throw new Error(`invalid sandbox name ${JSON.stringify(name)}: use letters, digits, '-' or '_' (not "core")`);
  }
  const fromOption = parsePort(opts.port, '--port');
  const fromEnv = parsePort(process.env.CMS_SANDBOX_PORT, 'CMS_SANDBOX_PORT');
  const port = fromOption ?? fromEnv ?? 8888;
  const portSource = fromOption !== undefined ? 'option' : fromEnv !== undefined ? 'env' : 'default';
  // The instances' own paths through a linked home's real folder: a running server is recognised
  // by the path it was started with (its pid files and command line).
  const real = existsSync(home) ? realpathSync(home) : home;
  const dir = join(real, name);
  const runDir = join(dir, 'run');
  let socket = join(runDir, 'mysqld.sock');
  if (socket.length > MAX_SOCKET_PATH) {
    const hash = createHash('sha256').update(dir).digest('hex').slice(0, 16);
    socket = join(tmpdir(), `cms-sandbox-${hash}.sock`);
  }
  return {
    home,
    name,
    port,
    portSource,
    log: opts.log ?? defaultLog,
    coreDir: join(real, 'core'),
    dir,
    wpDir: join(dir, 'wordpress'),
    dataDir: join(dir, 'mysql'),
    runDir,
    tmpDir: join(dir, 'tmp'),
    socket,
    dbPidFile: join(runDir, 'mariadbd.pid'),
    phpPidFile: join(runDir, 'php.pid'),
    logsDir: join(dir, 'logs'),
    stateFile: join(dir, 'state.json'),
    credentialsFile: join(dir, 'credentials.json'),
    secretsFile: join(dir, 'secrets.json'),
    clientCnf: join(dir, 'client.cnf'),
    snapshotsFile: join(dir, 'snapshots.json'),
    mailLog: join(dir, 'mail.jsonl'),
  };
}
