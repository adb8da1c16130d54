import { join } from 'node:path';
import { requireBinary, runChecked } from './exec.js';
import type { InstancePaths } from './paths.js';
import { scriptsDir } from './paths.js';
import { siteUrl } from './wp-files.js';

/**
 * Run one of scripts/sandbox/*.php against an instance in a PHP CLI process
 * and parse the JSON document it prints last. Secrets go in via `env`, never
 * argv; stdout is parsed, not logged.
 */
export async function runWpScript<T>(
  inst: InstancePaths,
  port: number,
  script: string,
  env: Record<string, string> = {},
): Promise<T> {
  const res = await runChecked(
    requireBinary('php'),
    ['-d', 'display_errors=stderr', '-d', 'memory_limit=512M', join(scriptsDir(), script)],
    {
      cwd: inst.wpDir,
      env: { ...process.env, ...env, CMS_SANDBOX_WP_DIR: inst.wpDir, CMS_SANDBOX_URL: siteUrl(port) },
    },
  );
  const last = res.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(
      `${script} printed no JSON result (stderr: ${res.stderr.trim().split('\n').slice(-3).join(' | ')})`,
    );
  }
}
