import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { mailLogPath, packageRoot, type SandboxOptions, siteDown, siteUp } from '../src/sandbox/index.js';

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

/** The test instance: separate from the developer's `site` instance, on its own port. */
export function testSandboxOptions(): SandboxOptions & { home: string; name: string; port: number } {
  return {
    home: process.env.CMS_SANDBOX_HOME || join(packageRoot(), '.cms-sandbox'),
    name: process.env.CMS_TEST_SANDBOX || 'test',
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
  const creds = await siteUp({ ...opts, seed: true });
  const mailLog = mailLogPath(opts);
  Object.assign(process.env, {
    CMS_URL: creds.url,
    CMS_USERNAME: creds.username,
    CMS_APP_PASSWORD: creds.appPassword,
    CMS_SANDBOX_HOME: opts.home,
    CMS_TEST_SANDBOX: opts.name,
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
    if (process.env.CMS_KEEP_SANDBOX === '1') {
      opts.log?.(`left running at ${creds.url} (CMS_KEEP_SANDBOX=1)`);
      return;
    }
    await siteDown(opts);
  };
}
