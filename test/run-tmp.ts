import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Global setup of both projects (vitest.config.ts), first in the wordpress project's list: every
 * temporary folder of the run (mkdtemp in the tests, the package test's npm apps, the CLIs' and
 * the sandbox's PHP temp files) goes in one folder, `TMPDIR` for everything started after it,
 * removed at teardown. A run used to leave ~110 folders in /tmp, 260 MB of npm apps among them.
 * The project that runs first makes it; the other finds it.
 */
export default function setup(): () => void {
  if (process.env.CMS_TEST_RUN_TMP) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'cms-test-'));
  process.env.CMS_TEST_RUN_TMP = dir;
  process.env.TMPDIR = dir;
  return () => {
    // Servers left running (CMS_KEEP_SANDBOX=1) have it as their TMPDIR: it stays then.
    if (process.env.CMS_KEEP_SANDBOX === '1') return;
    rmSync(dir, { recursive: true, force: true });
  };
}
