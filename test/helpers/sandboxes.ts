import { join } from 'node:path';
import { inject } from 'vitest';
import { DEFAULT_WP, packageRoot, parseWpVersion, type SandboxOptions, type WpVersion } from '../../src/sandbox/index.js';

import { fleetPorts, networkPort, sitePort } from './ports.js';

export { testWorkers } from './workers.js';

/**
 * The suite's sandbox instances. Files that talk to WordPress run in parallel, but never two on
 * one site: each vitest worker (VITEST_POOL_ID 1..n) has its own instance, started and seeded
 * once by test/global-setup.ts, so a file still has its site to itself while it runs (counts,
 * mu-plugins, options, the site lock, the fault proxy in front of it) — docs/testing.md.
 */

/** What a test file gets from `testSandbox()`: its worker's instance. */
export interface TestSandbox {
  url: string;
  username: string;
  appPassword: string;
  home: string;
  name: string;
  port: number;
  mailLog: string;
  /** The state folder the CLI journals in (XDG_STATE_HOME): one per instance. */
  stateHome: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxes: TestSandbox[];
    /** Worker i's multisite network (name and port), named once by global setup, which stops them all. */
    networks: { name: string; port: number }[];
    /** Worker i's two fleet sandboxes (test/helpers/fleet.ts), kept up between its fleet files; global teardown stops them. */
    fleets: { name: string; port: number; wp: string }[][];
    wordpress: string;
  }
}

export type InstanceOptions = SandboxOptions & { home: string; name: string; port: number; wp: WpVersion };

/**
 * Instance i (1-based): `test-<version>` (or CMS_TEST_SANDBOX) for the first, `<that>-w<i>` for
 * the others, on consecutive ports from CMS_TEST_PORT (default 8899). One per WordPress version
 * (CMS_SANDBOX_WP, default the newest), since an instance keeps its version.
 */
export function instanceOptions(i: number, env: NodeJS.ProcessEnv = process.env): InstanceOptions {
  const wp = parseWpVersion(env.CMS_SANDBOX_WP || DEFAULT_WP, 'CMS_SANDBOX_WP');
  const base = env.CMS_TEST_SANDBOX || `test-${wp.replace('.', '')}`;
  const name = i === 1 ? base : `${base}-w${i}`;
  return {
    home: env.CMS_SANDBOX_HOME || join(packageRoot(), '.cms-sandbox'),
    name,
    wp,
    port: sitePort(i, env),
    log: (line) => process.stderr.write(`[sandbox:${name}] ${line}\n`),
  };
}

/**
 * This worker's place (1-based) among the instances: pool ids are 1..maxWorkers and two running
 * files never share one; global setup starts one instance per worker (or one alone when at most
 * one WordPress-bound file runs). Other per-worker resources (the test network) use it too.
 */
export function workerIndex(): number {
  const all = inject('sandboxes');
  const id = Number(process.env.VITEST_POOL_ID || 1);
  return ((id - 1) % Math.max(1, all.length)) + 1;
}

/** This worker's instance (test files: use this, or `testSite()` / `wp()` in site.ts). */
export function testSandbox(): TestSandbox {
  const all = inject('sandboxes');
  const sandbox = all[workerIndex() - 1];
  if (!sandbox) throw new Error('The test sandboxes are not up: run the tests through vitest (global setup starts them).');
  return sandbox;
}

/**
 * Worker `worker`'s two fleet sandboxes (test/helpers/fleet.ts): one on the suite's WordPress, one
 * on 6.1, named and placed after the worker's own site (+60, +64: clear of the other workers' sites,
 * networks and fleets for up to four workers). The first fleet file of a worker starts them, later
 * ones find them up; global teardown stops every worker's (test/global-setup.ts).
 */
export function fleetOptions(worker: number, env: NodeJS.ProcessEnv = process.env): Array<{ name: string; port: number; wp: WpVersion }> {
  const site = sitePort(worker, env);
  const { f2, f61 } = fleetPorts(site);
  return [
    { name: `fleet-${site}-f2`, port: f2, wp: parseWpVersion(env.CMS_SANDBOX_WP || DEFAULT_WP, 'CMS_SANDBOX_WP') },
    { name: `fleet-${site}-f61`, port: f61, wp: '6.1' },
  ];
}

/** Worker `worker`'s network; global teardown stops every worker's (test/global-setup.ts). */
export function networkOptions(worker: number, env: NodeJS.ProcessEnv = process.env) {
  const wp = parseWpVersion(env.CMS_SANDBOX_WP || DEFAULT_WP, 'CMS_SANDBOX_WP');
  return {
    home: env.CMS_SANDBOX_HOME || join(packageRoot(), '.cms-sandbox'),
    // One network per vitest worker, like the test sites (docs/testing.md): worker i adds -w<i>
    // and 3 × (i - 1) to the port, so the three versions' ports never meet (8921–8932 for 4).
    // Named after your own instance when you name one (CMS_TEST_SANDBOX): two checkouts sharing
    // CMS_SANDBOX_HOME on their own ports must not share a network instance either.
    name: `${env.CMS_TEST_NETWORK || (env.CMS_TEST_SANDBOX ? `${env.CMS_TEST_SANDBOX}-net` : `test-net-${wp.replace('.', '')}`)}${worker > 1 ? `-w${worker}` : ''}`,
    port: networkPort(worker, wp, env),
    wp,
    multisite: true,
    log: (line: string) => process.stderr.write(`[sandbox:network] ${line}\n`),
  };
}
