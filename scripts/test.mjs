#!/usr/bin/env node
// `npm test` (README): vitest on a Node the package supports (engines: >= 22), with Node's compile
// cache on. npm puts node_modules/.bin first on PATH, so `node` here is the Node 22 of the `node`
// dev dependency; the Node that runs npm itself (npm_node_execpath) is used instead when it is
// 22 or newer, so a developer on Node 24 tests on 24. On an older Node (the Node 20 of Debian 12
// machines) the tests run on 22, and the CLIs they start (process.execPath) do too: measured, a
// CLI start costs half the CPU there (docs/testing.md). Arguments go to `vitest run`; reporters named
// there replace the config's, so the time reporter (slowest files, WordPress resets: docs/testing.md)
// is added back. The budget is quick unless CMS_TEST_BUDGET says full (.ci/run does).
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0]);
let node = process.execPath;
const npmNode = process.env.npm_node_execpath;
if (npmNode && npmNode !== node) {
  try {
    if (major(execFileSync(npmNode, ['-p', 'process.versions.node'], { encoding: 'utf8' })) >= 22) node = npmNode;
  } catch {
    // not runnable: keep ours
  }
}
if (node === process.execPath && major(process.versions.node) < 22)
  console.error(`[test] Node ${process.versions.node} is older than the package supports (>= 22): run npm ci to install the node dev dependency`);
const vitest = join(createRequire(import.meta.url).resolve('vitest/package.json'), '..', 'vitest.mjs');
const env = { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(process.cwd(), 'node_modules', '.cache', 'node-compile-cache') };
const args = process.argv.slice(2);
const timeReporter = './test/time-reporter.ts';
if (args.some((a) => a === '--reporter' || a.startsWith('--reporter=')) && !args.includes(`--reporter=${timeReporter}`))
  args.push(`--reporter=${timeReporter}`);
const child = spawn(node, [vitest, 'run', ...args], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
