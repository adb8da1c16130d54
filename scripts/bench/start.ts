/**
 * `npm run bench:start`: only the CLI start-up section of BENCHMARKS.md (no sandbox needed):
 * builds dist/, times the bin and the package's entries with this Node and CMS_BENCH_NODE.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { benchCliStart, benchNodes, CLI_BEGIN, CLI_END, cliStartSection } from './extras.js';
import { replaceSection } from './sections.js';

const RUNS = Number(process.env.CMS_BENCH_RUNS ?? 9);
execFileSync('npm', ['run', 'build'], {
  cwd: packageRoot(),
  stdio: 'inherit',
});
const rows = benchNodes().map(({ node, version }) => ({ version, cli: benchCliStart(RUNS, node) }));
await replaceSection(join(packageRoot(), 'BENCHMARKS.md'), CLI_BEGIN, CLI_END, cliStartSection(rows, RUNS));
