import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fixedPorts } from './ports.js';

const run = promisify(execFile);

/**
 * A real PostgreSQL for a test file (Debian's postgresql-15, as CI installs it: .ci/run): a new
 * cluster in a temp folder on 127.0.0.1 (`fixedPorts().postgres`), trust auth, started with
 * pg_ctl and stopped (and removed) by `stop()`, like the WordPress sandbox. As root it runs as
 * the `postgres` user the package made (PostgreSQL refuses to run as root).
 */
export async function startPostgres(options: { port?: number } = {}): Promise<{ url: string; restart(): Promise<void>; stop(): Promise<void> }> {
  const bin = process.env.CMS_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
  if (!existsSync(path.join(bin, 'pg_ctl'))) throw new Error(`no PostgreSQL at ${bin}: apt-get install postgresql-15 (or set CMS_TEST_PG_BIN)`);
  const root = userInfo().uid === 0;
  // As root the cluster's user must reach its folder: not inside the test run's private TMPDIR.
  const dir = mkdtempSync(path.join(root ? '/tmp' : tmpdir(), 'cms-pg-'));
  const data = path.join(dir, 'data');
  const port = options.port ?? fixedPorts().postgres;
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    chmodSync(dir, 0o700);
  }
  const as = (cmd: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { cwd: dir }) : run(path.join(bin, cmd), args, { cwd: dir });
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const ctl = (action: string, ...more: string[]) =>
    as('pg_ctl', [
      '-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', ...more,
      '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, action,
    ]);
  await ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** Stops the server (every session ends, as in a crash of the database host) and starts it again. */
    async restart() {
      await ctl('restart', '-m', 'fast');
    },
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
