/**
 * `npm run bench:start`: only the CLI start-up section of BENCHMARKS.md (no sandbox needed):
 * builds dist/, the CPU time of the bin and the package's entries, and its ratio to `node -e 0`,
 * with this Node and each of CMS_BENCH_NODE (comma-separated Node binaries).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { benchCliStart, benchNodes, CLI_BEGIN, CLI_END, cliStartSection } from './cli-start.js';
import { replaceSection } from './sections.js';

const RUNS = Number(process.env.CMS_BENCH_RUNS ?? 20);
execFileSync('npm', ['run', 'build'], {
  cwd: packageRoot(),
  stdio: 'inherit',
});
const rows = [];
for (const { node, version } of benchNodes()) rows.push({ version, cli: await benchCliStart(RUNS, node) });
await replaceSection(join(packageRoot(), 'BENCHMARKS.md'), CLI_BEGIN, CLI_END, cliStartSection(rows, RUNS));
