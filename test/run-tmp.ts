import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSeed, testBudget } from './helpers/budget.js';

/**
 * Global setup of both projects (vitest.config.ts), first in the wordpress project's list: every
 * temporary folder of the run (mkdtemp in the tests, the package test's npm apps, the CLIs' and
 * the sandbox's PHP temp files, the terminal tests' tmux sockets) goes in one folder, `TMPDIR` for
 * everything started after it, removed at teardown. A run used to leave ~110 folders in /tmp,
 * 260 MB of npm apps among them. The project that runs first makes it; the other finds it.
 *
 * It also fixes the run's budget and random seed (test/helpers/budget.ts) for every worker:
 * `CMS_TEST_SEED` drawn when not set, and printed with how to replay it.
 */
export default function setup(): () => void {
  if (process.env.CMS_TEST_RUN_TMP) return () => {};
  const budget = testBudget();
  const seed = runSeed();
  process.env.CMS_TEST_BUDGET = budget;
  process.env.CMS_TEST_SEED = String(seed);
  console.log(
    `test budget: ${budget} (CMS_TEST_BUDGET=quick|full; docs/testing.md); the run's random seed ${seed} (CMS_TEST_SEED=${seed} replays it)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'cms-test-'));
  process.env.CMS_TEST_RUN_TMP = dir;
  process.env.TMPDIR = dir;
  return () => {
    // Servers left running (CMS_KEEP_SANDBOX=1) have it as their TMPDIR: it stays then.
    if (process.env.CMS_KEEP_SANDBOX === '1') return;
    rmSync(dir, { recursive: true, force: true });
  };
}
