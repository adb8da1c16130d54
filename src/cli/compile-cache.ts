import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Node's module compile cache (22.1+: `module.enableCompileCache`) for `cms-admin`: the compiled
 * code of the modules a run loads is kept, so later runs skip compiling them (BENCHMARKS.md,
 * start-up). In a folder of this user's, `$XDG_CACHE_HOME/cms-admin/compile-cache` (default
 * ~/.cache), not Node's default (os.tmpdir()/node-compile-cache, one folder every user of the
 * machine shares, whose first creator owns it: another user could leave code there for this one to
 * run); Node creates it (0700 on POSIX) with a folder per Node version. NODE_COMPILE_CACHE, when
 * set, names the folder instead (Node's own setting), and NODE_DISABLE_COMPILE_CACHE=1 turns the
 * cache off. A folder that cannot be made or written costs the speed-up, never the run: Node then
 * compiles as without a cache, and nothing here throws. The folder is made here, one level at a
 * time, before Node is asked: Node's own recursive mkdir never returns where mkdir answers ENOENT
 * under a folder that exists (XDG_CACHE_HOME=/proc/…: measured, Node 22 and 24 spin forever).
 * Returns the folder in use, if any.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const enable = (module as { enableCompileCache?: (dir?: string) => { status: number; directory?: string } })
    .enableCompileCache;
  if (!enable) return undefined; // Node before 22.1
  try {
    let result: { status: number; directory?: string };
    if (env.NODE_COMPILE_CACHE) result = enable();
    else {
      const folder = compileCacheFolder(env);
      if (!madeFolder(folder)) return undefined;
      result = enable(folder);
    }
    const { ENABLED, ALREADY_ENABLED } =
      (module as { constants?: { compileCacheStatus?: Record<string, number> } }).constants?.compileCacheStatus ?? {};
    return result.status === ENABLED || result.status === ALREADY_ENABLED ? result.directory : undefined;
  } catch {
    return undefined;
  }
}

/** `$XDG_CACHE_HOME/cms-admin/compile-cache` (an absolute XDG_CACHE_HOME only), else ~/.cache's. */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(cache, 'cms-admin', 'compile-cache');
}

/** `folder` is a directory now (made 0700, each missing level by itself); false if it cannot be. */
function madeFolder(folder: string): boolean {
  try {
    if (statSync(folder).isDirectory()) return true;
  } catch {
    // missing: made below
  }
  const parent = dirname(folder);
  if (parent === folder || !madeFolder(parent)) return false;
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
