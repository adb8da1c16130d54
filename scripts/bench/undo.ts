/**
 * `npm run bench:undo`: requests and time to undo a merge of 1,000 posts (issue #24: "undoing a
 * merge of 1,000 posts takes a few requests"). On the large bench site (scripts/bench/large-site.php,
 * its own sandbox instance), three source categories holding 1,000 posts of mixed statuses are
 * merged into a target with `delete_sources` through the tool, journaled (untimed); then the
 * undo is timed on a fresh client: the sources recreated, every post given its sources back
 * and the target taken away. The site is checked after each run and restored before the next.
 * Writes the "Undo" section of BENCHMARKS.md, which `npm run bench` keeps.
 *
 *   npm run bench:undo [-- --runs 3]
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { replaceSection } from './sections.js';
import { benchInstance, grownSite, keptSection } from './bench-site.js';
import { chunk, type WordPressClient } from '../../src/client/index.js';
import { createContext } from '../../src/config.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { packageRoot, restoreSnapshot, siteStatus } from '../../src/sandbox/index.js';
import type { ToolContext } from '../../src/call/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { withoutCompanion } from '../../test/helpers/site.js';
import { allPostIds } from './bulk.js';
import { callTool, freshContext, median } from './measure.js';

export const BEGIN = '<!-- undo:begin -->';
export const END = '<!-- undo:end -->';
const file = join(packageRoot(), 'BENCHMARKS.md');
const POSTS = 1000;
const STATUSES = 'publish,draft,pending,private,future';
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
// Its own instance, so it never restores a snapshot under another run's feet.
const SITE = benchInstance('bench:undo', { name: 'bench-undo', port: 8931, portVar: 'CMS_BENCH_UNDO_PORT' });
const SNAPSHOT = 'bench_large';

/** The section as it is in BENCHMARKS.md now, for `npm run bench` to keep. */
export const undoSection = (): Promise<string> => keptSection(BEGIN, END);

async function largeSite(): Promise<SandboxCredentials> {
  return (await grownSite(SITE, { snapshot: SNAPSHOT, script: 'large-site.php' })).creds;
}

type PostCats = { id: number; categories: number[] };

/** Three sources holding the posts (every fourth in two), a target; the posts' categories before. */
async function fixture(client: WordPressClient, postIds: number[], run: number) {
  const make = async (name: string) => (await client.post<{ id: number }>('/wp/v2/categories', { name: `${name} ${run}-${Date.now().toString(36)}` })).id;
  const sources = [await make('Undo src A'), await make('Undo src B'), await make('Undo src C')];
  const target = await make('Undo target');
  const results = await client.batch(
    postIds.map((id, i) => ({
      path: `/wp/v2/posts/${id}`,
      body: { categories: [sources[i % 3] as number, ...(i % 4 === 0 ? [sources[(i + 1) % 3] as number] : [])] },
    })),
  );
  if (results.some((r) => !r.ok)) throw new Error('undo fixture: a post could not be prepared');
  return { sources, target };
}

/** Each post's category names, to compare before the merge and after its undo (ids change). */
async function categoryNames(client: WordPressClient, postIds: number[]): Promise<string> {
  const names = new Map((await client.all<{ id: number; name: string }>('/wp/v2/categories', { hide_empty: false, _fields: 'id,name' })).map((c) => [c.id, c.name]));
  const posts: PostCats[] = [];
  for (const include of chunk(postIds, 100))
    posts.push(...(await client.get<PostCats[]>('/wp/v2/posts', { include, status: STATUSES, context: 'edit', _fields: 'id,categories', per_page: 100 })));
  return JSON.stringify(posts.sort((a, b) => a.id - b.id).map((p) => [p.id, p.categories.map((c) => names.get(c)).sort()]));
}

interface Sample {
  mergeMs: number;
  mergeRequests: number;
  ms: number;
  requests: number;
  restored: number;
  /** Requests of the undo by method and route, for where they go. */
  routes: Record<string, number>;
}

/** Counts the client's requests by method and route (ids and queries left out). */
function countRoutes(client: WordPressClient): Record<string, number> {
  const counts: Record<string, number> = {};
  const request = client.request.bind(client);
  client.request = (req) => {
    const key = `${req.method ?? 'GET'} ${req.path.replace(/\/\d+/g, '/<id>')}`;
    counts[key] = (counts[key] ?? 0) + 1;
    return request(req);
  };
  return counts;
}

async function measureUndo(site: SandboxCredentials, postIds: number[], plugin: boolean, run: number): Promise<Sample> {
  await restoreSnapshot({ ...SITE, log: () => {} }, SNAPSHOT);
  const setup = createContext(site).client;
  const f = await fixture(setup, postIds, run);
  const before = await categoryNames(setup, postIds);
  const journal = memoryJournal();
  const path = (c: ToolContext) => (plugin ? c : withoutCompanion(c));
  const merging = Object.assign(path(await freshContext(site)), { journal });
  let t = performance.now();
  await callTool(merging, 'merge-categories', { source_ids: f.sources, target_id: f.target, delete_sources: true });
  const mergeMs = performance.now() - t;
  const [entry] = await journal.entries();
  if (!entry?.reversible) throw new Error(`the merge was not journaled as reversible: ${entry?.why_not}`);
  const undoing = Object.assign(path(await freshContext(site)), { journal });
  const routes = countRoutes(undoing.client);
  t = performance.now();
  const report = await undoChange(undoing, journal, { change_id: entry.change_id });
  const ms = performance.now() - t;
  if (report.conflicts.length) throw new Error(`undo reported conflicts: ${JSON.stringify(report.conflicts.slice(0, 3))}`);
  if ((await categoryNames(setup, postIds)) !== before) throw new Error('after the undo, posts do not have the categories they had');
  return { mergeMs, mergeRequests: merging.client.stats.requests, ms, requests: undoing.client.stats.requests, restored: report.restored.length, routes };
}

async function main() {
  const site = await largeSite();
  const postIds = (await allPostIds(createContext(site).client)).slice(-POSTS);
  const rows: string[] = [];
  const where: string[] = [];
  for (const plugin of [true, false]) {
    const samples: Sample[] = [];
    for (let run = 0; run < RUNS; run++) samples.push(await measureUndo(site, postIds, plugin, run));
    const ms = median(samples.map((s) => s.ms));
    const mid = samples.reduce((a, b) => (Math.abs(b.ms - ms) < Math.abs(a.ms - ms) ? b : a));
    const label = plugin ? 'companion plugin (bulk route)' : 'core only (/batch/v1, site lock)';
    rows.push(
      `| ${label} | ${Math.round(median(samples.map((s) => s.mergeMs)))} ms | ${mid.mergeRequests} | **${Math.round(ms)} ms** | **${mid.requests}** | ${mid.restored} |`,
    );
    SITE.log(`${label}: ${JSON.stringify(samples.map(({ routes: _, ...s }) => s))}`);
    SITE.log(`${label}, undo requests by route: ${JSON.stringify(mid.routes)}`);
    const routes = Object.entries(mid.routes).sort((a, b) => b[1] - a[1]);
    where.push(`- ${label}: ${routes.map(([route, n]) => `${n} × \`${route}\``).join(', ')}`);
  }
  await restoreSnapshot(SITE, SNAPSHOT);
  const wordpress = (await siteStatus(SITE)).wordpress;
  const section = [
    BEGIN,
    '## Undo',
    '',
    `Produced by \`npm run bench:undo\` on ${new Date().toISOString().slice(0, 10)} (${RUNS} runs, median; 1-minute load average`,
    `${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores at the end) on the large bench site (WordPress ${wordpress}).`,
    `Three categories holding ${POSTS} posts of mixed statuses (every fourth in two of them)`,
    'merged into a target with `delete_sources`, journaled; then `undoChange()` on a fresh client: the three',
    'sources recreated, every post given back exactly the categories it had (checked after each run).',
    'Requests: HTTP requests to WordPress counted by the client, the connect check excluded.',
    '',
    '| path | merge | merge requests | undo of the merge | undo requests | items restored |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Where the undo\'s requests go:',
    '',
    ...where,
    END,
  ].join('\n');
  await replaceSection(file, BEGIN, END, section);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
