/**
 * `npm run bench`: builds a large site on a sandbox instance of its own ("bench", port 8930),
 * measures every tool, the bulk tools against the floor and the per-post pattern, listing,
 * output size, CLI start-up and the tool schemas' size, and writes BENCHMARKS.md.
 *
 * Then the large-site benchmark (20,000 tags, 2,000 categories, 5,000 users; large-site.ts), and
 * the fleet section (one call on 50 sites, fleet.ts; alone: `npm run bench:fleet`).
 *
 *   npm run bench [-- --runs 5]
 *   npm run bench -- --large-only     only the large-site section of BENCHMARKS.md
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createContext } from '../../src/config.js';
import { packageRoot, restoreSnapshot, siteStatus } from '../../src/sandbox/index.js';
import { benchInstance, grownSite } from './bench-site.js';
import { allPostIds, benchAssign, benchMerge } from './bulk.js';
import { benchGenreAssign, benchGenreRemove } from './bulk-terms.js';
import { benchCliStart, benchListing, benchNodes, benchToolSchemas, benchUserOutputSize, benchUsersCutoff } from './extras.js';
import { backendSection } from './backends.js';
import { undoSection } from './undo.js';
import { cleanupSection } from './cleanup.js';
import { importSection } from './import-users.js';
import { journalSection } from './journal.js';
import { fleetSection } from './fleet.js';
import { renderReport } from './report.js';
import { benchTools } from './tool-cases.js';
import { LARGE_END, LARGE_START, renderLargeSite } from './large-report.js';
import { benchLargeSite } from './large-site.js';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const BENCH = benchInstance('bench', { name: 'bench', port: 8930, portVar: 'CMS_BENCH_PORT' });
const LARGE = 'bench_large';

async function largeSite() {
  return (await grownSite(BENCH, { snapshot: LARGE, script: 'large-site.php' })).creds;
}

// Renamed when huge-site.php grows, so an older snapshot is not reused.
const HUGE = 'bench_huge_posts';

/** The large-site section: its own snapshot of the bench sandbox, seeded once with SQL. */
async function largeSiteSection(): Promise<string> {
  const { creds: site, grown } = await grownSite<{ seconds: number }>(BENCH, { snapshot: HUGE, script: 'huge-site.php' });
  const seedSeconds = grown?.seconds ?? 0;
  const client = createContext(site).client;
  const counts = {
    tags: await client.count('/wp/v2/tags', { hide_empty: false }),
    categories: await client.count('/wp/v2/categories', { hide_empty: false }),
    users: await client.count('/wp/v2/users', { context: 'edit' }),
    posts: await client.count('/wp/v2/posts', { status: 'publish,draft,pending,private,future', context: 'edit' }),
  };
  const result = await benchLargeSite(site, BENCH.log);
  await restoreSnapshot({ ...BENCH, log: () => {} }, HUGE);
  return renderLargeSite(result, counts, seedSeconds, (await siteStatus(BENCH)).wordpress);
}

async function largeOnly() {
  const section = await largeSiteSection();
  const path = join(packageRoot(), 'BENCHMARKS.md');
  const current = await readFile(path, 'utf8').catch(() => '# Benchmarks\n');
  const start = current.indexOf(LARGE_START);
  const end = current.indexOf(LARGE_END);
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${section.trimEnd()}${current.slice(end + LARGE_END.length)}`
      : `${current.trimEnd()}\n\n${section}`;
  await writeFile(path, next);
  console.log(section);
}

async function main() {
  if (process.argv.includes('--large-only')) return largeOnly();
  const started = Date.now();
  BENCH.log('building dist/ for the CLI start-up measurement');
  execFileSync('npm', ['run', 'build'], { cwd: packageRoot(), stdio: 'inherit' });
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
  BENCH.log('custom taxonomy: assign and remove a genre on 500 posts (floor, per-post, tool)');
  const genreAssign = await benchGenreAssign(site, assignPosts, RUNS, reset);
  const genreRemove = await benchGenreRemove(site, assignPosts, RUNS, reset);
  await restoreSnapshot(BENCH, LARGE);
  BENCH.log('every tool');
  const tools = await benchTools(site, postIds, RUNS);
  await restoreSnapshot(BENCH, LARGE);
  BENCH.log('listing, users, output size, start-up, schemas');
  const listing = await benchListing(site, RUNS);
  const cutoff = '2026-01-01T00:00:00';
  const users = await benchUsersCutoff(site, RUNS, cutoff);
  const output = await benchUserOutputSize(site);
  const cli = [];
  for (const { node, version } of benchNodes()) cli.push({ version, cli: await benchCliStart(RUNS, node) });
  const schemas = await benchToolSchemas(site);

  BENCH.log('large site (20,000 tags, 2,000 categories, 5,000 users)');
  const large = await largeSiteSection();
  const wordpress = (await siteStatus(BENCH)).wordpress;
  const report = renderReport({ runs: RUNS, wordpress, counts, assign, merge, genreAssign, genreRemove, tools, listing, users, cutoff, output, cli, schemas, seconds: (Date.now() - started) / 1000 });
  await writeFile(join(packageRoot(), 'BENCHMARKS.md'), `${report}\n${large}${await backendSection()}${await undoSection()}${await importSection()}${await journalSection()}\n\n${await fleetSection()}\n${await cleanupSection()}`);
  console.log(report);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
