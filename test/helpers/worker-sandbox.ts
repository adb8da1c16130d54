import { inject } from 'vitest';
import { testSandbox } from './sandboxes.js';
import { beginTestFile } from './site.js';

// setupFiles entry: this worker's own instance (test/helpers/sandboxes.ts) into process.env,
// which the helpers (site.ts, output-log.ts, mu-plugin.ts) and the CLIs the tests spawn read.
const sandbox = testSandbox();
Object.assign(process.env, {
  CMS_URL: sandbox.url,
  CMS_USERNAME: sandbox.username,
  CMS_APP_PASSWORD: sandbox.appPassword,
  CMS_SANDBOX_HOME: sandbox.home,
  CMS_TEST_SANDBOX: sandbox.name,
  CMS_TEST_WORDPRESS: inject('wordpress'),
  XDG_STATE_HOME: sandbox.stateHome,
});
// Runs before each file (setup files do, even when a worker's files share one process).
beginTestFile();
