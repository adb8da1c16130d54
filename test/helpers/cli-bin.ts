import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

/**
 * The `cms-admin` command the tests start. Global setup (test/global-setup.ts) bundles
 * src/cli/bin.ts once per run with the package's own build (scripts/build-bin.mjs: the same
 * esbuild options as `dist/cli/cms-admin.js`, Node's compile cache on) into a folder of its own
 * under .cms-test-bin/ (inside the package, so the CLI finds the package root, the plugin and
 * axios as from dist/). A start then costs ~0.35 s of CPU instead of ~2 s through tsx, which
 * transformed and loaded ~400 source modules each time (docs/testing.md, "where the time goes").
 * Outside the suite's global setup (the unit project, a file run alone without it) it is the
 * sources through tsx, as before.
 */
export async function buildTestBin(): Promise<{ bin: string; remove(): void }> {
  const root = packageRoot();
  mkdirSync(path.join(root, '.cms-test-bin'), { recursive: true });
  // One folder per run: two runs in one checkout never start a half-written bundle.
  const dir = mkdtempSync(path.join(root, '.cms-test-bin', 'run-'));
  await promisify(execFile)(process.execPath, [path.join(root, 'scripts/build-bin.mjs'), dir], { cwd: root });
  return { bin: path.join(dir, 'cli', 'cms-admin.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Node's arguments that start `cms-admin` (then its own arguments): the run's bundle, else the sources through tsx. */
export function cliArgs(): string[] {
  let bin: string | undefined;
  try {
    bin = inject('cliBin');
  } catch {
    bin = undefined; // not inside a vitest worker of the wordpress project
  }
  return bin ? [bin] : ['--import', 'tsx', path.join(packageRoot(), 'src/cli/main.ts')];
}

/** The same as one shell word list (tmux terminal tests, `bash -c`). */
export function cliShell(): string {
  return [process.execPath, ...cliArgs()].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

declare module 'vitest' {
  export interface ProvidedContext {
    cliBin: string | undefined;
  }
}
