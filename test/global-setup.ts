import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  DEFAULT_WP,
  mailLogPath,
  packageRoot,
  parseWpVersion,
  type SandboxOptions,
  siteDown,
  siteStatus,
  siteUp,
} from '../src/sandbox/index.js';
import { aptInstall, isRoot } from '../src/sandbox/apt.js';
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

/** What test files can `inject('sandbox')` (the same values are also in process.env). */
export interface TestSandbox {
  url: string;
  username: string;
  appPassword: string;
  home: string;
  name: string;
  port: number;
  mailLog: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sandbox: TestSandbox;
  }
}

/**
 * The test instance: separate from the developer's `site` instance, on its own port, one per
 * WordPress version (CMS_SANDBOX_WP, default the newest) since an instance keeps its version.
 */
export function testSandboxOptions(): SandboxOptions & { home: string; name: string; port: number; wp: string } {
  const wp = parseWpVersion(process.env.CMS_SANDBOX_WP || DEFAULT_WP, 'CMS_SANDBOX_WP');
  return {
    home: process.env.CMS_SANDBOX_HOME || join(packageRoot(), '.cms-sandbox'),
    name: process.env.CMS_TEST_SANDBOX || `test-${wp.replace('.', '')}`,
    wp,
    port: Number(process.env.CMS_TEST_PORT || 8899),
    log: (line) => process.stderr.write(`[sandbox:test] ${line}\n`),
  };
}

/**
 * Bring up the test sandbox with a fresh seeded database on every run (the
 * `seeded` snapshot is restored when current, otherwise the dataset is
 * seeded), then hand its credentials to the test workers via process.env,
 * which they inherit, and `provide`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const opts = testSandboxOptions();
  await ensureTestPrograms((line) => opts.log?.(line));
  const creds = await siteUp({ ...opts, seed: true });
  resetOutputLog(opts.home, opts.name);
  // CI legs run per WordPress version: say which one this run tests.
  const wordpress = (await siteStatus(opts)).wordpress ?? 'unknown';
  opts.log?.(`tests run against WordPress ${wordpress} at ${creds.url}`);
  const mailLog = mailLogPath(opts);
  Object.assign(process.env, {
    CMS_URL: creds.url,
    CMS_USERNAME: creds.username,
    CMS_APP_PASSWORD: creds.appPassword,
    CMS_SANDBOX_HOME: opts.home,
    CMS_TEST_SANDBOX: opts.name,
    CMS_TEST_WORDPRESS: wordpress,
    // The CLI journals every write in the user's state folder by default (docs/undo.md): tests
    // keep theirs beside the sandbox, never in the home of whoever runs them.
    XDG_STATE_HOME: join(opts.home, `${opts.name}-state`),
  });
  const { url, username, appPassword } = creds;
  project.provide('sandbox', {
    url,
    username,
    appPassword,
    home: opts.home,
    name: opts.name,
    port: opts.port,
    mailLog,
  });
  return async () => {
    // Suite-wide secrets check over everything the tests recorded (test/helpers/output-log.ts).
    const compact = creds.appPassword.replace(/\s+/g, '');
    const leaks = findLeaks(opts.home, opts.name, {
      'the application password': creds.appPassword,
      'the application password without spaces': compact,
      'the Basic auth header': Buffer.from(`${creds.username}:${creds.appPassword}`).toString('base64'),
      'the admin password': creds.adminPassword,
    });
    opts.log?.(`secrets check: ${outputLogSize(opts.home, opts.name)} characters of recorded output, ${leaks.length} secret(s) found`);
    if (leaks.length) {
      // vitest reports an error thrown here but still exits 0: set the exit code too.
      process.exitCode = 1;
      throw new Error(`Secrets appeared in test output: ${leaks.slice(0, 10).join('; ')}`);
    }
    if (process.env.CMS_KEEP_SANDBOX === '1') {
      opts.log?.(`left running at ${creds.url} (CMS_KEEP_SANDBOX=1)`);
      return;
    }
    await siteDown(opts);
  };
}
