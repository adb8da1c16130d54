import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheFolder } from '../../src/cli/compile-cache.js';
import { packageRoot } from '../../src/package-root.js';

/** enableCompileCache(env) in a new Node (it turns the cache on for the whole process): what it returns. */
function enableInNode(env: NodeJS.ProcessEnv): string | undefined {
  const script = `import('./src/cli/compile-cache.ts').then((m) => console.log(JSON.stringify({ dir: m.enableCompileCache(${JSON.stringify(env)}) ?? null })))`;
  // A limit, not a wait: the call returns at once; before the folder was made level by level,
  // Node's recursive mkdir never returned under /proc.
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: packageRoot(),
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_COMPILE_CACHE: '' },
  });
  return (JSON.parse(out) as { dir: string | null }).dir ?? undefined;
}

describe("cms-admin's compile cache folder", () => {
  it('is $XDG_CACHE_HOME/cms-admin/compile-cache, else ~/.cache (never os.tmpdir(), which every user shares)', () => {
    expect(compileCacheFolder({ XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/cms-admin/compile-cache');
    expect(compileCacheFolder({ XDG_CACHE_HOME: 'relative' })).toMatch(/\.cache\/cms-admin\/compile-cache$/);
    expect(compileCacheFolder({})).not.toContain(tmpdir());
  });

  it('is made 0700, level by level, and Node caches there', () => {
    const cache = path.join(mkdtempSync(path.join(tmpdir(), 'cms-cc-')), 'deep', 'cache');
    const dir = enableInNode({ XDG_CACHE_HOME: cache });
    expect(dir).toBe(path.join(cache, 'cms-admin', 'compile-cache'));
    for (const folder of [cache, path.join(cache, 'cms-admin'), dir as string]) {
      expect(statSync(folder).mode & 0o777, folder).toBe(0o700);
    }
  });

  it('a folder that cannot be made (under /proc, or read-only) leaves the cache off and returns', () => {
    expect(enableInNode({ XDG_CACHE_HOME: '/proc/no-such-cache' })).toBeUndefined();
    expect(enableInNode({ XDG_CACHE_HOME: '/proc/self' })).toBeUndefined();
  });
});
