/**
 * Every port the suite places, from one base: CMS_TEST_PORT (default 8899). A developer who
 * names their own port gets every instance and server of the run beside it (base … base + 89),
 * never on someone else's: the defaults (8899 …) are the same offsets from 8899. docs/testing.md.
 */
export function basePort(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.CMS_TEST_PORT || 8899);
}

/** Worker i's site (1-based): consecutive ports from the base. */
export function sitePort(i: number, env: NodeJS.ProcessEnv = process.env): number {
  return basePort(env) + i - 1;
}

/** The first port of each version's networks (+22/+23/+24); worker i adds 3 × (i - 1), so versions never meet. */
const NETWORK_OFFSET: Record<string, number> = { '7.1': 22, '6.8': 23, '6.1': 24 };

/** Worker i's multisite network (test/helpers/network.ts); CMS_TEST_NETWORK_PORT moves worker 1's. */
export function networkPort(i: number, wp: string, env: NodeJS.ProcessEnv = process.env): number {
  const first = env.CMS_TEST_NETWORK_PORT ? Number(env.CMS_TEST_NETWORK_PORT) : basePort(env) + (NETWORK_OFFSET[wp] ?? 22);
  return first + 3 * (i - 1);
}

/** The fleet tests' two extra sandboxes, after the worker's own site (test/helpers/fleet.ts). */
export function fleetPorts(site: number): { f2: number; f61: number } {
  return { f2: site + 60, f61: site + 64 };
}

/** The README test's versions example (two instances), test/cli/readme.test.ts. */
export function readmePorts(env: NodeJS.ProcessEnv = process.env): { a: number; b: number } {
  return { a: basePort(env) + 70, b: basePort(env) + 75 };
}

/**
 * Fixed ports of single files: test/sandbox's throwaway instance, the OAuth restart on one
 * address, the PostgreSQL clusters of mcp-postgres, mcp-postgres-changes, mcp-postgres-signin and
 * postgres-restart (four files that may run at once, each its own cluster).
 */
export function fixedPorts(env: NodeJS.ProcessEnv = process.env): {
  downTest: number;
  oauthRestart: number;
  postgres: number;
  postgresChanges: number;
  postgresSignIn: number;
  postgresRestart: number;
} {
  return {
    postgres: basePort(env) + 85,
    postgresChanges: basePort(env) + 86,
    postgresSignIn: basePort(env) + 87,
    postgresRestart: basePort(env) + 88,
    downTest: env.CMS_DOWNTEST_PORT ? Number(env.CMS_DOWNTEST_PORT) : basePort(env) + 80,
    oauthRestart: basePort(env) + 56,
  };
}

/** Every port a run with `workers` workers on WordPress `wp` may take (the unit test checks they stay in range). */
export function allPorts(workers: number, wp: string, env: NodeJS.ProcessEnv = process.env): number[] {
  const out: number[] = [];
  for (let i = 1; i <= workers; i++) {
    const site = sitePort(i, env);
    const fleet = fleetPorts(site);
    out.push(site, networkPort(i, wp, env), fleet.f2, fleet.f61);
  }
  const readme = readmePorts(env);
  const fixed = fixedPorts(env);
  out.push(readme.a, readme.b, fixed.downTest, fixed.oauthRestart, fixed.postgres, fixed.postgresChanges, fixed.postgresSignIn, fixed.postgresRestart);
  return out;
}
