/**
 * `npm run bench`: builds a large site on a sandbox instance of its own ("bench", port 8930),
 * measures every tool, the bulk tools against the floor and the per-post pattern, listing,
 * output size, CLI start-up and the tool schemas' size, and writes BENCHMARKS.md.
 *
 *   npm run bench [-- --runs 5]
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createContext } from '../../src/config.js';
import { packageRoot, readCredentials, restoreSnapshot, saveSnapshot, siteSeed, siteUp } from '../../src/sandbox/index.js';
import { runWpScript } from '../../src/sandbox/wp-scripts.js';
import { resolveInstance } from '../../src/sandbox/paths.js';
import { allPostIds, benchAssign, benchMerge } from './bulk.js';
import { benchCliStart, benchListing, benchToolSchemas, benchUserOutputSize, benchUsersCutoff } from './extras.js';
import { renderReport } from './report.js';
import { benchTools } from './tool-cases.js';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const BENCH = { name: 'bench', port: Number(process.env.CMS_BENCH_PORT ?? 8930), log: (l: string) => console.error(`[bench] ${l}`) };
const LARGE = 'bench_large';

async function largeSite() {
  await siteUp(BENCH);
  try {
    await restoreSnapshot(BENCH, LARGE);
  } catch {
    await siteSeed(BENCH);
    const inst = resolveInstance(BENCH);
    const grown = await runWpScript(inst, BENCH.port, '../bench/large-site.php');
    BENCH.log(`large site: ${JSON.stringify(grown)}`);
    await saveSnapshot(BENCH, LARGE);
  }
  const site = await readCredentials(BENCH);
  if (!site) throw new Error('bench sandbox has no credentials');
  return site;
}

async function main() {
  const started = Date.now();
  BENCH.log('building dist/ for the CLI start-up measurement');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: packageRoot(), stdio: 'inherit' });
  const site = await largeSite();
  const client = createContext(site).client;
  const postIds = await allPostIds(client);
  const counts = {
    categories: await client.count('/wp/v2/categories', { hide_empty: false }),
    posts: postIds.length,
    users: await client.count('/wp/v2/users', { context: 'edit' }),
  };
  BENCH.log(`site: ${JSON.stringify(counts)}`);

  // Mixed statuses: the bench posts cycle through the five statuses.
  const assignPosts = postIds.slice(-500);
  const mergePosts = postIds.slice(-800, -500);
  BENCH.log('bulk assign (floor, per-post, tool)');
  const reset = () => restoreSnapshot({ ...BENCH, log: () => {} }, LARGE);
  const assign = await benchAssign(site, assignPosts, RUNS, reset);
  BENCH.log('merge (floor, per-post, tool)');
  const merge = await benchMerge(site, mergePosts, RUNS, reset);
  await restoreSnapshot(BENCH, LARGE);
  BENCH.log('every tool');
  const tools = await benchTools(site, postIds, RUNS);
  await restoreSnapshot(BENCH, LARGE);
  BENCH.log('listing, users, output size, start-up, schemas');
  const listing = await benchListing(site, RUNS);
  const cutoff = '2026-01-01T00:00:00';
  const users = await benchUsersCutoff(site, RUNS, cutoff);
  const output = await benchUserOutputSize(site);
  const cli = benchCliStart(RUNS);
  const schemas = await benchToolSchemas(site);

  const report = renderReport({ runs: RUNS, counts, assign, merge, tools, listing, users, cutoff, output, cli, schemas, seconds: (Date.now() - started) / 1000 });
  await writeFile(join(packageRoot(), 'BENCHMARKS.md'), report);
  console.log(report);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
