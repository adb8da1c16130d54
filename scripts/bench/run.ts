/**
 * `npm run bench`: builds a large site on a sandbox instance of its own ("bench", port 8930),
 * measures every tool, the bulk tools against the floor and the per-post pattern, listing,
 * output size and CLI start-up; then the large-site benchmark (20,000 tags, 2,000 categories,
 * 5,000 users; large-site.ts), each bulk job beside WordPress doing it in one PHP process
 * (floors.ts), the MCP server under load (mcp-load.ts) and the fleet section (fleet.ts). Each
 * section replaces its own part of BENCHMARKS.md (between its markers): what is written by hand
 * around them stays, and so do the sections other commands write (bench:undo, bench:import …).
 *
 *   npm run bench [-- --runs 5]
 *   npm run bench -- --only floors,mcp [--small] [--jobs prune-terms] [--seconds 5]
 *       only these sections; names: report, large, floors, mcp, fleet, and the ones with a command
 *       of their own (undo, cleanup, import, journal, backends, network, start), run as that command
 *   npm run bench -- --large-only     the same as --only large
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createContext } from '../../src/config.js';
import { packageRoot, restoreSnapshot, siteStatus } from '../../src/sandbox/index.js';
import { benchInstance, grownSite, keptSection } from './bench-site.js';
import { allPostIds, benchAssign, benchMerge } from './bulk.js';
import { benchGenreAssign, benchGenreRemove } from './bulk-terms.js';
import { benchCliStart, benchListing, benchNodes, benchToolSchemas, benchUserOutputSize, benchUsersCutoff, CLI_BEGIN, CLI_END, cliStartSection } from './extras.js';
import { BEGIN as FLEET_BEGIN, END as FLEET_END, fleetSection } from './fleet.js';
import { BEGIN as FLOORS_BEGIN, END as FLOORS_END, floorOptions, floorsSection } from './floors.js';
import { BEGIN as MCP_BEGIN, END as MCP_END, mcpSection } from './mcp-load.js';
import { replaceSection } from './sections.js';
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

const BENCHMARKS_FILE = join(packageRoot(), 'BENCHMARKS.md');
const REPORT_BEGIN = '<!-- report:begin -->';
const REPORT_END = '<!-- report:end -->';

/** Sections a command of their own writes (run as that command by --only). */
const OWN_COMMANDS: Record<string, string> = {
  undo: 'undo.ts',
  cleanup: 'cleanup.ts',
  import: 'import-users.ts',
  journal: 'journal.ts',
  backends: 'backends.ts',
  network: 'network-users.ts',
  start: 'start.ts',
};

/** Sections measured here, each written in place. */
const SECTIONS: Record<string, () => Promise<void>> = {
  report: reportSection,
  large: async () => replaceSection(BENCHMARKS_FILE, LARGE_START, LARGE_END, await largeSiteSection()),
  floors: async () => {
    const options = floorOptions(process.argv);
    const kept = options.jobs ? await keptSection(FLOORS_BEGIN, FLOORS_END) : '';
    await replaceSection(BENCHMARKS_FILE, FLOORS_BEGIN, FLOORS_END, await floorsSection(options, kept));
  },
  mcp: async () => {
    const at = process.argv.indexOf('--seconds');
    await replaceSection(BENCHMARKS_FILE, MCP_BEGIN, MCP_END, await mcpSection(at > 0 ? { seconds: Number(process.argv[at + 1]) } : {}));
  },
  fleet: async () => replaceSection(BENCHMARKS_FILE, FLEET_BEGIN, FLEET_END, await fleetSection()),
};

function build() {
  BENCH.log('building dist/ (the CLI start-up and the MCP server run the built bin)');
  execFileSync('npm', ['run', 'build'], { cwd: packageRoot(), stdio: 'inherit' });
}

/** Every tool, the bulk jobs against paged REST and per-post writes, listing, output size, CLI start-up. */
async function reportSection() {
  const started = Date.now();
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
  // The tool schemas' section is kept by test/agent/schema-size.test.ts (the same capture); logged here.
  BENCH.log(`tool schemas: ${JSON.stringify(schemas)}`);
  const wordpress = (await siteStatus(BENCH)).wordpress;
  const report = renderReport({ runs: RUNS, wordpress, counts, assign, merge, genreAssign, genreRemove, tools, listing, users, cutoff, output, seconds: (Date.now() - started) / 1000 });
  await replaceSection(BENCHMARKS_FILE, REPORT_BEGIN, REPORT_END, `${REPORT_BEGIN}\n${report.trimEnd()}\n${REPORT_END}`);
  await replaceSection(BENCHMARKS_FILE, CLI_BEGIN, CLI_END, cliStartSection(cli, RUNS));
}

async function main() {
  const at = process.argv.indexOf('--only');
  const only = process.argv.includes('--large-only') ? ['large'] : at > 0 ? (process.argv[at + 1] ?? '').split(',').filter(Boolean) : undefined;
  const unknown = (only ?? []).filter((name) => !(name in SECTIONS) && !(name in OWN_COMMANDS));
  if (unknown.length) throw new Error(`unknown section(s) ${unknown.join(', ')}: ${[...Object.keys(SECTIONS), ...Object.keys(OWN_COMMANDS)].join(', ')}`);
  const names = only ?? ['report', 'large', 'floors', 'mcp', 'fleet'];
  if (names.some((name) => name === 'report' || name === 'mcp')) build();
  for (const name of names) {
    const started = Date.now();
    BENCH.log(`section ${name}`);
    if (name in SECTIONS) await SECTIONS[name]!();
    else execFileSync(process.execPath, ['--import', 'tsx', join(packageRoot(), 'scripts', 'bench', OWN_COMMANDS[name]!)], { stdio: 'inherit' });
    BENCH.log(`section ${name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
