import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInstance } from '../../src/sandbox/index.js';

/** A test-only must-use plugin of the test sandbox: `file` under wp-content/mu-plugins, written and removed. */
export function testMuPlugin(file: string) {
  const path = () =>
    join(
      resolveInstance({ home: process.env.CMS_SANDBOX_HOME, name: process.env.CMS_TEST_SANDBOX }).wpDir,
      'wp-content',
      'mu-plugins',
      file,
    );
  return {
    install: (php: string) => writeFile(path(), php),
    remove: () => rm(path(), { force: true }),
  };
}
