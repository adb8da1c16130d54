import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  ensurePrerequisites,
  mailLogPath,
  resolveInstance,
  type SandboxCredentials,
  siteDown,
  siteStatus,
  siteUp,
} from '../src/sandbox/index.js';
import { aptInstall, isRoot } from '../src/sandbox/apt.js';
import { portInUse } from '../src/sandbox/php-server.js';
import { fleetOptions, type InstanceOptions, instanceOptions, networkOptions, type TestSandbox } from './helpers/sandboxes.js';
import { buildTestBin } from './helpers/cli-bin.js';
import { allPorts } from './helpers/ports.js';
import { timedReset } from './helpers/reset-time.js';
import { findLeaks, outputLogSize, resetOutputLog } from './helpers/output-log.js';

/** Programs the tests drive besides the sandbox: tmux (terminal tests), openssl (the TLS test's certificate). */
const TEST_PROGRAMS = ['tmux', 'openssl'];

/** Installs the missing ones as root (as `site up` does PHP and MariaDB); otherwise says the command. */
async function ensureTestPrograms(log: (line: string) => void): Promise<void> {
  const missing = TEST_PROGRAMS.filter((program) => {
    try {
      execFileSync(program, ['-V'], { stdio: 'ignore' });
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT';
    }
  });
  if (!missing.length) return;
  if (!isRoot()) throw new Error(`The tests need ${missing.join(' and ')}: sudo apt-get install -y ${missing.join(' ')}`);
  await aptInstall(log, missing);
}

/**
 * How many instances: one per worker (the pool's maxWorkers, from CMS_TEST_WORKERS in
 * vitest.config.ts), or one alone when this run has at most one WordPress-bound file.
 */
async function instanceCount(project: TestProject): Promise<number> {
  const workers = Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
  if (workers === 1) return 1;
  try {
    // The files this run chose (CLI filters, --exclude) of this project.
    const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
    const { testFiles } = await project.globTestFiles(filters);
    return testFiles.length <= 1 ? 1 : workers;
  } catch {
    return workers;
  }
}

/**
 * Stops an instance a test file started (a worker's network) whatever state it is in: a php -S
 * master may be gone while its forked workers still hold the port, which `siteStatus` does not
 * count as running (CI: a 7.1 network's port was still held when the 6.8 leg wanted it). One
 * never created is left alone.
 */
async function stopIfStarted(opts: InstanceOptions): Promise<void> {
  try {
    if (existsSync(resolveInstance(opts).dir)) await siteDown({ ...opts, log: () => {} });
  } catch (err) {
    opts.log?.(`could not stop "${opts.name}": ${(err as Error).message}`);
  }
}

/** Up and seeded (the `seeded` snapshot restored when current); a failure names the instance and its logs. */
async function startInstance(opts: InstanceOptions): Promise<SandboxCredentials> {
  try {
    // Counted with the run's WordPress resets (test/helpers/reset-time.ts): the start restores the
    // seeded snapshot (or seeds a new instance).
    return await timedReset('instance starts with the seeded snapshot (global setup)', () => siteUp({ ...opts, seed: true }));
  } catch (err) {
    const { logsDir } = resolveInstance(opts);
    throw new Error(`test sandbox "${opts.name}" (port ${opts.port}) did not start: ${(err as Error).message}\n  its logs: ${logsDir}`);
  }
}

/**
 * Bring up the test instances in parallel, each with a fresh seeded database (restored from its
 * `seeded` snapshot when current, otherwise seeded), and hand their credentials to the workers
 * (`provide`; test/helpers/worker-sandbox.ts puts the worker's own into process.env).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // bcrypt at its lowest cost for the passwords the instances hash (the sandbox's mu-plugin,
  // scripts/sandbox/sandbox-mu-plugin.php): ~50 → ~2 ms of PHP CPU an account, hundreds of accounts
  // a run. Every sandbox this run starts inherits it (the workers', fleets', networks', README's).
  process.env.CMS_SANDBOX_BCRYPT_COST ??= '4';
  const count = await instanceCount(project);
  const all = Array.from({ length: count }, (_, i) => instanceOptions(i + 1));
  const first = all[0] as InstanceOptions;
  // Every port the run may place that is free now must be free again at the end (teardown).
  const placed = allPorts(count, first.wp);
  const freeAtStart = (await Promise.all(placed.map(async (p) => ((await portInUse(p)) ? [] : [p])))).flat();
  await ensureTestPrograms((line) => first.log?.(line));
  // Once, before the parallel starts: apt and the WordPress download must not run twice at once.
  await ensurePrerequisites(first, first.wp);
  // The CLI the tests start, built once beside the instances' start (test/helpers/cli-bin.ts).
  const building = buildTestBin();
  const started = await Promise.allSettled(all.map(startInstance));
  const cli = await building.catch(async (err: Error) => {
    await Promise.all(all.map((opts) => siteDown(opts).catch(() => {})));
    throw new Error(`building the test CLI failed: ${err.message}`);
  });
  const failed = started.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
  const creds = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  if (failed.length) {
    cli.remove();
    await Promise.all(all.map((opts) => siteDown(opts).catch(() => {})));
    throw new Error(failed.join('\n'));
  }
  // CI legs run per WordPress version: say which one this run tests.
  const wordpress = (await siteStatus(first)).wordpress ?? 'unknown';
  const sandboxes: TestSandbox[] = all.map((opts, i) => {
    const { url, username, appPassword } = creds[i] as SandboxCredentials;
    resetOutputLog(opts.home, opts.name);
    return {
      url,
      username,
      appPassword,
      home: opts.home,
      name: opts.name,
      port: opts.port,
      mailLog: mailLogPath(opts),
      // The CLI journals every write in the user's state folder by default (docs/undo.md): tests
      // keep theirs beside the sandbox, never in the home of whoever runs them.
      stateHome: join(opts.home, `${opts.name}-state`),
    };
  });
  first.log?.(`tests run against WordPress ${wordpress} at ${sandboxes.map((s) => s.url).join(', ')} (${count} at once), on Node ${process.versions.node}`);
  project.provide('sandboxes', sandboxes);
  const networks = all.map((_, i) => networkOptions(i + 1));
  project.provide('networks', networks.map(({ name, port }) => ({ name, port })));
  // Each worker's fleet sandboxes: started by its first fleet file, kept up for the next ones.
  const fleets = all.map((_, i) => fleetOptions(i + 1));
  project.provide('fleets', fleets);
  project.provide('wordpress', wordpress);
  project.provide('cliBin', cli.bin);
  return async () => {
    cli.remove();
    // Suite-wide secrets check over everything the tests recorded (test/helpers/output-log.ts).
    const leaks = all.flatMap((opts, i) => {
      const c = creds[i] as SandboxCredentials;
      const found = findLeaks(opts.home, opts.name, {
        'the application password': c.appPassword,
        'the application password without spaces': c.appPassword.replace(/\s+/g, ''),
        'the Basic auth header': Buffer.from(`${c.username}:${c.appPassword}`).toString('base64'),
        'the admin password': c.adminPassword,
      });
      return found.map((leak) => `${opts.name}: ${leak}`);
    });
    const size = all.reduce((sum, opts) => sum + outputLogSize(opts.home, opts.name), 0);
    first.log?.(`secrets check: ${size} characters of recorded output, ${leaks.length} secret(s) found`);
    if (leaks.length) {
      // vitest reports an error thrown here but still exits 0: set the exit code too.
      process.exitCode = 1;
      throw new Error(`Secrets appeared in test output: ${leaks.slice(0, 10).join('; ')}`);
    }
    if (process.env.CMS_KEEP_SANDBOX === '1') {
      first.log?.(`left running at ${sandboxes.map((s) => s.url).join(', ')} (CMS_KEEP_SANDBOX=1); their temporary files in ${process.env.TMPDIR}`);
      return;
    }
    // The workers' multisite networks (test/wordpress/network) and fleet sandboxes stay up between
    // their files: stopped here too, even when a site's stop fails, or they would hold their ports into the next run.
    const stopped = await Promise.allSettled(all.map((opts) => siteDown(opts)));
    await Promise.all(networks.map(stopIfStarted));
    await Promise.all(fleets.flat().map((f) => stopIfStarted({ home: first.home, name: f.name, port: f.port, wp: f.wp, log: first.log })));
    const failed = stopped.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    // A server left up holds its port into the next run, which then fails with "port … is already
    // in use" far from the cause (CI's 6.8 leg did, on a 7.1 network a worker had named otherwise).
    const held = (await Promise.all(freeAtStart.map(async (p) => ((await portInUse(p)) ? [p] : [])))).flat();
    if (held.length) failed.push(`port(s) ${held.join(', ')} were free when the run started and are still in use after it: a test left a server up`);
    if (failed.length) {
      process.exitCode = 1;
      throw new Error(`the test sandboxes were not all stopped: ${failed.join('; ')}`);
    }
  };
}
