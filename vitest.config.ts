import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/sequencer.js';
import { testWorkers } from './test/helpers/workers.js';

/**
 * Two projects: `unit` (pure logic) and `wordpress` (everything that talks to the real sandbox
 * site). Files run in parallel, CMS_TEST_WORKERS at once; each worker has its own WordPress
 * instance (test/helpers/sandboxes.ts), so no two files share a site and counts read from it are
 * not disturbed. docs/testing.md.
 */
export default defineConfig({
  test: {
    maxWorkers: testWorkers(),
    // After vitest's summary: the slowest files and the time spent putting WordPress back
    // (test/time-reporter.ts; scripts/test.mjs keeps it when the command line names reporters).
    reporters: ['default', './test/time-reporter.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // The run's temporary files in one folder, removed at the end (test/run-tmp.ts).
          globalSetup: ['test/run-tmp.ts'],
          // Pure logic: the files of a worker share one module graph instead of each importing
          // the sources again (measured: 54 → 27 s of CPU for the project, docs/testing.md).
          isolate: false,
        },
      },
      {
        test: {
          name: 'wordpress',
          include: [
            'test/wordpress/**/*.test.ts',
            'test/sandbox/**/*.test.ts',
            'test/agent/**/*.test.ts',
            'test/cli/**/*.test.ts',
            'test/reliability/**/*.test.ts',
            'test/evals/**/*.test.ts',
            'test/package/**/*.test.ts',
          ],
          globalSetup: ['test/run-tmp.ts', 'test/global-setup.ts'],
          // A worker runs its files one after another in one process with one module graph, as
          // the unit project does: each file no longer starts a process and imports the sources
          // and LangChain again (measured on test/wordpress, 74 files: 226 → 164 s of CPU, 187 →
          // 154 s wall; docs/testing.md). Files still get their own setup files run, and each
          // worker its own site; a file that changes process-wide state puts it back.
          isolate: false,
          setupFiles: ['test/helpers/worker-sandbox.ts', 'test/helpers/record-console.ts', 'test/helpers/profile-files.ts'],
          // Limits, not waits: a test ends when its condition holds. Files now share the cores
          // (CMS_TEST_WORKERS at once), so a CLI start that takes 2 s alone can take 20 s on a
          // loaded 2-core machine; 60 s failed tests that spawn the CLI twice there.
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
