import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (pure logic, parallel) and `wordpress` (everything that talks to the
 * real sandbox site, one file at a time so counts read from the site are not disturbed).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
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
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/helpers/record-console.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
