import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { coreProblem, ensureCore } from '../../src/sandbox/core.js';

// Two fleet files starting WordPress 6.1 at once on a fresh clone: one filling the core cache
// removed the tree the other was still reading (ENOENT, lstat …/wp-includes/…). Fills take turns
// (src/sandbox/core-lock.ts); the others wait and use the cache the first one made.
const home = await mkdtemp(join(tmpdir(), 'cms-core-'));
afterAll(() => rm(home, { recursive: true, force: true }));

it('three fills of one empty WordPress cache at once: each gets the version, one downloads, the cache is complete', async () => {
  const coreDir = join(home, 'core', '6.1');
  const lines: string[] = [];
  const versions = await Promise.all([1, 2, 3].map(() => ensureCore(coreDir, '6.1', (line) => lines.push(line))));
  expect(versions.every((v) => v.startsWith('6.1.'))).toBe(true);
  expect(lines.filter((line) => /cached in/.test(line))).toHaveLength(1);
  expect(await coreProblem(coreDir, '6.1')).toBeUndefined();
  // With the theme Debian's wordpress 6.1 recommends (WordPress 6.1's default), unpacked in place.
  expect(existsSync(join(coreDir, 'wordpress', 'wp-content', 'themes', 'twentytwentythree', 'style.css'))).toBe(true);
}, 300_000);
