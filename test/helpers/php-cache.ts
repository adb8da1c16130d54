import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * PHP options for the tests' `php -r` inside a sandbox's WordPress (wpPhp, the network helper's
 * php): OPcache on for the CLI with a file cache only, in the run's temporary folder (TMPDIR,
 * test/run-tmp.ts; removed at teardown). Each such process otherwise compiles the ~500 files
 * WordPress loads again: measured ~0.16 → ~0.05 s of CPU a process. Files that change are
 * compiled again (timestamps are checked on every load), so mu-plugins a test writes are seen.
 * The sandboxes' php -S servers keep their own shared-memory OPcache (src/sandbox/php-server.ts).
 */
export function phpCacheArgs(): string[] {
  const dir = join(tmpdir(), 'cms-php-opcache');
  mkdirSync(dir, { recursive: true });
  return ['-d', 'opcache.enable_cli=1', '-d', `opcache.file_cache=${dir}`, '-d', 'opcache.file_cache_only=1', '-d', 'opcache.revalidate_freq=0'];
}
