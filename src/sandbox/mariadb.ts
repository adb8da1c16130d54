import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { isRoot } from './apt.js';
import { requireBinary, runChecked } from './exec.js';
import { writeFileAtomic } from './files.js';
import type { InstancePaths } from './paths.js';
import { isAlive, processesWithArg, readPidFile, signal, spawnDetached, waitFor } from './processes.js';
import type { InstanceSecrets } from './state.js';

export const DB_NAME = 'wordpress';
export const DB_USER = 'wordpress';

/** Settings shared by mariadb-install-db and mariadbd: a small, fast, throwaway server. */
const TUNING = [
  '--innodb-buffer-pool-size=64M',
  '--innodb-log-file-size=16M',
  // A sandbox does not need crash durability; this makes seeding much faster.
  // https://mariadb.com/kb/en/innodb-system-variables/#innodb_flush_log_at_trx_commit
  '--innodb-flush-log-at-trx-commit=2',
  '--skip-name-resolve',
  '--character-set-server=utf8mb4',
  '--collation-server=utf8mb4_unicode_ci',
];

const userArgs = () => (isRoot() ? ['--user=root'] : []);

export function mariadbLog(inst: InstancePaths): string {
  return join(inst.logsDir, 'mariadb.log');
}

/** True when the data directory has been initialised (system tables present). */
export function dataDirReady(inst: InstancePaths): boolean {
  return existsSync(join(inst.dataDir, 'mysql', 'global_priv.frm'));
}

/** Create the system tables (~0.7 s). Built in a temp dir and renamed, so a crash leaves no half-made datadir. */
export async function initDataDir(inst: InstancePaths): Promise<void> {
  const tmp = `${inst.dataDir}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(inst.tmpDir, { recursive: true, mode: 0o700 });
  await runChecked(requireBinary('mariadb-install-db'), [
    '--no-defaults',
    `--datadir=${tmp}`,
    `--tmpdir=${inst.tmpDir}`,
    ...userArgs(),
    // root (and the invoking OS user) authenticate via unix_socket: no password to keep.
    // https://mariadb.com/kb/en/mariadb-install-db/#user-accounts
    '--auth-root-authentication-method=socket',
    '--skip-test-db',
    ...TUNING,
  ]);
  await rm(inst.dataDir, { recursive: true, force: true });
  await rename(tmp, inst.dataDir);
}

/**
 * Whether the server answers on its socket: its greeting comes once it accepts connections. A
 * connect alone succeeds earlier, while the server is still starting; a stop sent then went
 * unanswered until the 60 s limit (seen under load: the test of the tmpdir, stopped at once).
 */
function serverGreets(path: string, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ path });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      sock.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    sock.once('data', () => done(true));
    sock.once('error', () => done(false));
    sock.once('close', () => done(false));
  });
}

const datadirArg = (inst: InstancePaths) => `--datadir=${inst.dataDir}`;

/** pid of this instance's mariadbd (pid file first, then a /proc scan for its --datadir). */
export async function mariadbPid(inst: InstancePaths): Promise<number | undefined> {
  const pid = await readPidFile(inst.dbPidFile);
  if (isAlive(pid, datadirArg(inst))) return pid;
  return processesWithArg('mariadbd', datadirArg(inst))[0];
}

async function logTail(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim().split('\n').slice(-6).join('\n');
  } catch {
    return '';
  }
}

/** Start mariadbd detached (own process group, Unix socket only) and wait until it accepts connections. */
export async function startMariadb(inst: InstancePaths): Promise<void> {
  if (await mariadbPid(inst)) return;
  await rm(inst.socket, { force: true });
  await mkdir(inst.tmpDir, { recursive: true, mode: 0o700 });
  const logFile = mariadbLog(inst);
  const pid = spawnDetached(
    requireBinary('mariadbd'),
    [
      '--no-defaults', // must come first: ignore /etc/mysql/* of any system server
      datadirArg(inst),
      `--socket=${inst.socket}`,
      `--tmpdir=${inst.tmpDir}`,
      `--pid-file=${inst.dbPidFile}`,
      `--log-error=${logFile}`,
      '--skip-networking',
      '--performance-schema=OFF',
      '--max-connections=60',
      // Level 2 logs every aborted connection, including our own readiness probe.
      '--log-warnings=1',
      ...userArgs(),
      ...TUNING,
    ],
    { logFile },
  );
  const ok = await waitFor(async () => !isAlive(pid) || (await serverGreets(inst.socket)), 60_000);
  if (!ok || !isAlive(pid)) {
    throw new Error(`MariaDB did not start (see ${logFile}):\n${await logTail(logFile)}`);
  }
}

/** Graceful shutdown (SIGTERM flushes InnoDB); SIGKILL only if it hangs. */
export async function stopMariadb(inst: InstancePaths): Promise<void> {
  const pid = await mariadbPid(inst);
  if (!pid) return;
  signal(pid, 'SIGTERM');
  if (!(await waitFor(() => !isAlive(pid), 60_000, 50))) {
    signal(pid, 'SIGKILL');
    await waitFor(() => !isAlive(pid), 5_000);
  }
  await rm(inst.socket, { force: true });
}

const sqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * First start only: create the WordPress database and a password user for
 * PHP, connecting as the OS user via unix_socket auth.
 */
export async function bootstrapDatabase(inst: InstancePaths, secrets: InstanceSecrets): Promise<void> {
  const osUser = isRoot() ? 'root' : userInfo().username;
  const pw = sqlString(secrets.dbPassword);
  const statements = [
    `CREATE DATABASE IF NOT EXISTS \`${DB_NAME}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
    `CREATE OR REPLACE USER '${DB_USER}'@'localhost' IDENTIFIED BY ${pw};`,
    // ALL on *.*: snapshots live in sibling databases (snap_<label>).
    `GRANT ALL PRIVILEGES ON *.* TO '${DB_USER}'@'localhost';`,
  ].join('\n');
  await runChecked(requireBinary('mariadb'), ['--no-defaults', `--socket=${inst.socket}`, `--user=${osUser}`], {
    input: statements,
  });
  await writeClientCnf(inst, secrets);
}

/** Option file for the `mariadb` client, so the password never appears in argv. */
export async function writeClientCnf(inst: InstancePaths, secrets: InstanceSecrets): Promise<void> {
  const cnf = `[client]\nuser=${DB_USER}\npassword="${secrets.dbPassword}"\nsocket=${inst.socket}\n`;
  await writeFileAtomic(inst.clientCnf, cnf, 0o600);
}

/** Run SQL (from stdin) as the WordPress DB user; returns tab-separated rows. `database: null` selects none. */
export async function sql(inst: InstancePaths, query: string, database: string | null = DB_NAME): Promise<string[][]> {
  const args = [`--defaults-file=${inst.clientCnf}`, '--batch', '--skip-column-names'];
  if (database) args.push(database);
  const res = await runChecked(requireBinary('mariadb'), args, { input: query });
  return res.stdout
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => l.split('\t'));
}
