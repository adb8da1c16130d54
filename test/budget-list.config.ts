import { defineConfig } from 'vitest/config';

/**
 * For test/unit/test-budgets.test.ts only: `vitest list` of the budgeted files, to compare their
 * test names under both budgets. Listing collects the files (their top-level code runs, no hook
 * and no test does), so no sandbox is started: the context global setup would provide is made up.
 */
const sandbox = {
  url: 'http://127.0.0.1:9',
  username: 'list',
  appPassword: 'xxxx xxxx xxxx xxxx xxxx xxxx',
  home: '/nonexistent',
  name: 'list',
  port: 9,
  mailLog: '/nonexistent/mail.jsonl',
  stateHome: '/nonexistent/state',
};

export default defineConfig({
  test: {
    globalSetup: ['test/run-tmp.ts'],
    setupFiles: ['test/helpers/worker-sandbox.ts'],
    isolate: false,
    provide: {
      sandboxes: [sandbox],
      networks: [{ name: 'list-net', port: 9 }],
      fleets: [[]],
      wordpress: '7.1',
      cliBin: '/nonexistent/cms-admin.js',
    },
  },
});
