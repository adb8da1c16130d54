import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initDataDir, mariadbLog, startMariadb, stopMariadb } from '../../src/sandbox/mariadb.js';
import { resolveInstance } from '../../src/sandbox/paths.js';

/**
 * A MariaDB server that starts removes every `#sql*` file in its tmpdir (leftover temp tables of a
 * crash). Sandboxes that shared /tmp removed each other's temp tables while a neighbour was being
 * set up: CI's three instances for WordPress 6.1 failed with mariadb-install-db's "Error on delete
 * of '/tmp/#sql-temptable-…'". Each instance keeps its temp files in its own folder.
 */
describe('MariaDB temp files', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("a sandbox's MariaDB, set up and started, leaves another server's temp tables in /tmp alone", async () => {
    const home = await mkdtemp(join(tmpdir(), 'cms-tmpdir-'));
    dirs.push(home);
    // What a neighbouring server's temp table looks like while it is being used.
    const neighbour = join(tmpdir(), `#sql-temptable-${process.pid.toString(16)}-1-1.MAI`);
    dirs.push(neighbour);
    await writeFile(neighbour, 'in use');
    // MariaDB only: no TCP port is opened (the server listens on its socket alone).
    const inst = resolveInstance({ home, name: 'tmpdir', port: 9611, log: () => {} });
    // What `site up` makes before it starts the servers.
    await mkdir(inst.logsDir, { recursive: true });
    await mkdir(inst.runDir, { recursive: true });
    await initDataDir(inst);
    expect(existsSync(neighbour), 'mariadb-install-db removed a temp table in /tmp').toBe(true);
    await startMariadb(inst);
    try {
      expect(existsSync(neighbour), 'mariadbd removed a temp table in /tmp').toBe(true);
      expect(existsSync(inst.tmpDir)).toBe(true);
    } finally {
      await stopMariadb(inst);
    }
    // Stopped by its SIGTERM, not killed at the 60 s limit: startMariadb returns once the server
    // greets, and a stop sent while it was still starting went unanswered (seen under load).
    expect(await readFile(mariadbLog(inst), 'utf8')).toMatch(/Shutdown complete/);
  });
});
