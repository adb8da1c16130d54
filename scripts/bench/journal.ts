/**
 * `npm run bench:journal`: what the change store (issue #47) costs at 1,000,000 entries over 8
 * sites. Builds the store (entries shaped like the tools' own: term edits, bulk assigns of 10–60
 * posts, role changes, undos with id maps; one in five by another account; spread over the bench
 * site and 7 more site keys, each of which is the bench WordPress again behind a loopback TCP
 * forwarder of its own, so `undo --run` has 8 real sites to read), ends it with one real change
 * and one real fleet run on the bench site, then runs the CLI as a user would, each command in
 * its own process under /usr/bin/time -v (wall time, peak RSS): `changes -n 20`, `invoke
 * list-changes`, `undo --last 1 --dry-run`, `undo --run ID --dry-run` over the 8 sites, and
 * `changes` on an empty store (the CLI's start, which every row includes). Then a write's
 * journal cost at that size: the intent and its completion, in-process, median of 50.
 *
 *   npm run bench:journal [-- --entries 1000000] [--label after]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createContext } from '../../src/config.js';
import { packageRoot, siteUp } from '../../src/sandbox/index.js';
import { callTool, findTool, OPERATORS_OWN_CALL } from '../../src/call/index.js';
import { changeStore } from '../../src/undo/change-store.js';
import { fileJournal, newChangeId } from '../../src/undo/journal.js';
import { siteKey } from '../../src/undo/site-key.js';
import { loadSqlite } from '../../src/undo/sqlite.js';
import { writeProfiles } from '../../src/sites/store.js';
import { replaceSection } from './sections.js';
import { benchInstance, credentialsOf, keptSection } from './bench-site.js';

const run = promisify(execFile);
export const BEGIN = '<!-- journal:begin -->';
export const END = '<!-- journal:end -->';
const file = join(packageRoot(), 'BENCHMARKS.md');
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const ROOT = packageRoot();
const LABEL = arg('--label') ?? 'after';
const ENTRIES = Number(arg('--entries') ?? 1_000_000);
const SITES = 8;
/** Runs of each read-only command (median time, highest RSS). */
const RUNS = Number(arg('--runs') ?? 3);
// Recent entries (one every 3 s up to now): retention deletes only entries past 90 days.
const START = Date.now() - ENTRIES * 3_000;
const SITE = benchInstance('bench:journal', { name: 'bench-journal', port: 8932, portVar: 'CMS_BENCH_JOURNAL_PORT' });

/** The section as it is in BENCHMARKS.md now, for `npm run bench` to keep. */
export const journalSection = (): Promise<string> => keptSection(BEGIN, END);

let seq = 0;
/** One entry like the tools write (src/undo/record.ts), ~1.3 KB on average. */
function syntheticEntry(i: number, user: string): string {
  const at = new Date(START + i * 3_000).toISOString();
  const change_id = `c${(START + i * 3_000).toString(36)}${(seq++ % 65536).toString(16).padStart(4, '0')}`;
  const pad = '';
  const kind = i % 20;
  const term = (id: number) => ({ name: `Term ${id} with a longer name`, slug: `term-${id}-with-a-longer-name`, description: 'A description of moderate length, as editors write them.', parent: 0 });
  if (kind < 10) {
    const id = 1000 + (i % 500);
    return JSON.stringify({ change_id, at, user, tool: 'update-category', params: { id, description: `Updated ${i}` }, summary: `changed category ${id}: description${pad}`, reversible: true, before: { taxonomy: 'category', terms: { [id]: term(id) } }, after: { taxonomy: 'category', terms: { [id]: { ...term(id), description: `Updated ${i}` } } } });
  }
  if (kind < 16) {
    const n = 10 + (i % 50);
    const ids = Array.from({ length: n }, (_, k) => 5000 + ((i * 7 + k) % 20000));
    const posts = (extra: number[]) => Object.fromEntries(ids.map((p) => [p, [1, 3 + (p % 9), ...extra]]));
    return JSON.stringify({ change_id, at, user, tool: 'assign-categories-to-posts', params: { post_ids: ids, category_ids: [77] }, summary: `assigned category 77 to ${n} post(s)${pad}`, reversible: true, before: { taxonomy: 'category', posts: posts([]) }, after: { taxonomy: 'category', posts: posts([77]) } });
  }
  if (kind < 19) {
    const id = 10 + (i % 40);
    const account = (roles: string[]) => ({ username: `user${id}`, email: `user${id}@example.com`, name: `User ${id}`, bio: '', roles, disabled: false });
    return JSON.stringify({ change_id, at, user, tool: 'set-user-role', params: { id, role: 'editor' }, summary: `set user${id}'s role editor (was: author)${pad}`, reversible: true, before: { users: { [id]: account(['author']) } }, after: { users: { [id]: account(['editor']) } } });
  }
  const id = 2000 + (i % 300);
  return JSON.stringify({ change_id, at, user, tool: 'undo-change', params: { change_id: 'c0' }, summary: `undid c0 (deleted tag ${id}): 1 restored${pad}`, reversible: true, before: { taxonomy: 'post_tag', terms: { [id]: null } }, after: { taxonomy: 'post_tag', terms: { [id + 9000]: term(id) }, id_map: { [id]: id + 9000 } }, undoes: 'c0' });
}

/** 8 site URLs of the one bench WordPress: itself, and 7 loopback TCP forwarders to it. */
async function siteUrls(port: number): Promise<{ urls: string[]; close: () => void }> {
  const servers: net.Server[] = [];
  const urls = [`http://127.0.0.1:${port}`];
  for (let i = 1; i < SITES; i++) {
    const server = net.createServer((socket) => {
      const upstream = net.connect(port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      const end = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', end);
      upstream.on('error', end);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
  }
  return { urls, close: () => {
      for (const s of servers) s.close();
    },
  };
}

/** The store: ENTRIES - 1 synthetic rows over the 8 sites in transactions of 10,000 (as the store writes them). */
async function buildStore(path: string, sites: string[], user: { id: number; username: string }): Promise<void> {
  const { DatabaseSync } = await loadSqlite();
  await changeStore(path).count(); // creates the schema
  await changeStore(path).close();
  const db = new DatabaseSync(path);
  const insert = db.prepare('INSERT INTO changes (id, site, user_id, login, run, tool, status, undoes, at, doc) VALUES (?,?,?,?,?,?,?,?,?,?)');
  for (let i = 0; i < ENTRIES - 1; i++) {
    if (i % 10_000 === 0) db.exec('BEGIN');
    const other = i % 5 === 4;
    const entry = JSON.parse(syntheticEntry(i, other ? 'editor1' : user.username));
    entry.user_id = other ? 99 : user.id;
    entry.site = sites[i % sites.length];
    // Fleet runs of 8 entries, one per site, every 800 entries.
    if (i % 800 < SITES) entry.run_id = `r${Math.floor(i / 800)}`;
    entry.status = 'done';
    insert.run(entry.change_id, entry.site, entry.user_id, entry.user, entry.run_id ?? null, entry.tool, 'done', entry.undoes ?? null, entry.at, JSON.stringify(entry));
    if (i % 10_000 === 9_999 || i === ENTRIES - 2) db.exec('COMMIT');
  }
  db.close();
}

interface Row { command: string; seconds: number; rssMb: number; code: number }

async function buildBin(): Promise<string> {
  await run(process.execPath, ['scripts/build-bin.mjs'], { cwd: ROOT });
  return join(ROOT, 'dist', 'cli', 'cms-admin.js');
}

/** `runs` runs of one CLI command: the median wall time, the highest peak memory. */
async function measure(bin: string, command: string, args: string[], env: NodeJS.ProcessEnv, runs = RUNS): Promise<Row> {
  const rows: Row[] = [];
  for (let i = 0; i < runs; i++) rows.push(await measureOnce(bin, command, args, env));
  const sorted = [...rows].sort((a, b) => a.seconds - b.seconds);
  return { ...(sorted[Math.floor(sorted.length / 2)] as Row), rssMb: Math.max(...rows.map((r) => r.rssMb)) };
}

async function measureOnce(bin: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Row> {
  const node = [process.execPath, bin, ...args];
  const { stderr, code } = await run('/usr/bin/time', ['-v', ...node], { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 1 << 28 })
    .then((r) => ({ ...r, code: 0 }))
    .catch((err: { stderr: string; code: number }) => ({ stderr: err.stderr, code: err.code }));
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  if (!wall || !rss) throw new Error(`no timing for ${command}: ${stderr.slice(-500)}`);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const row = { command, seconds, rssMb: Number(rss[1]) / 1024, code };
  SITE.log(`${LABEL} ${command}: ${seconds.toFixed(2)} s, ${row.rssMb.toFixed(0)} MB, exit ${code}`);
  if (code) SITE.log(stderr.slice(-800));
  return row;
}

/** A write's journal cost at this size: the intent (insert) and its completion (update), median of 50, in ms. */
async function writeCost(path: string, site: string, user: { id: number; username: string }): Promise<number> {
  const journal = fileJournal(path).forSite?.(site);
  if (!journal?.update) throw new Error('no store');
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const entry = { ...JSON.parse(syntheticEntry(i, user.username)), change_id: newChangeId(), user_id: user.id, site };
    const start = performance.now();
    await journal.append({ ...entry, status: 'pending', after: {} });
    await journal.update({ ...entry, status: 'done' });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[25] as number;
}

/** Medians of 20, in ms: every site's entries of the run; the latest 20 entries of one site. */
async function storeReads(path: string, sites: string[], runId: string): Promise<{ byRun: number; latest: number }> {
  const median = async (work: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const start = performance.now();
      await work();
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[10] as number;
  };
  const store = changeStore(path);
  const byRun = await median(() => Promise.all(sites.map((site) => store.journal(site).byRun?.(runId))));
  const latest = await median(async () => {
    let n = 0;
    for await (const _ of store.journal(sites[0]).latest?.() ?? []) if (++n === 20) break;
  });
  return { byRun, latest };
}

async function main() {
  await siteUp(SITE);
  const site = await credentialsOf(SITE);
  const dir = mkdtempSync(join(tmpdir(), 'bench-journal-'));
  const store = join(dir, 'changes.db');
  const { urls, close } = await siteUrls(SITE.port);
  const keys = urls.map(siteKey);
  const context = createContext(site, { journal: store });
  const me = await context.client.connect();
  const built = Date.now();
  await buildStore(store, keys, me);
  SITE.log(`store: ${ENTRIES} entries over ${SITES} sites, ${(statSync(store).size / 1e6).toFixed(0)} MB, built in ${((Date.now() - built) / 1000).toFixed(0)} s`);
  // One real change (what undo --last 1 takes back), and one real fleet run on the 8 site URLs.
  const made = await callTool({ tool: findTool('create-category')!, params: { name: `Journal bench ${Date.now().toString(36)}` } }, context, {}, OPERATORS_OWN_CALL);
  if (!made.ok) throw new Error(`the real change failed: ${JSON.stringify(made.error)}`);
  const configHome = join(dir, 'config');
  writeProfiles(
    { version: 1, sites: urls.map((url, i) => ({ name: `s${i}`, url, username: site.username, appPassword: site.appPassword, groups: ['bench'] })) },
    join(configHome, 'cms-admin', 'sites.json'),
  );
  const bin = await buildBin();
  const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: store, XDG_CONFIG_HOME: configHome };
  const fleetRun = await run(process.execPath, [bin, 'invoke', '--sites', '@bench', '--json', JSON.stringify({ tool: 'update-category', params: { id: 1, description: `bench ${Date.now()}` } })], {
    cwd: ROOT,
    env: { ...process.env, ...env, CMS_URL: '', CMS_USERNAME: '', CMS_APP_PASSWORD: '' },
  });
  const runId = (JSON.parse(fleetRun.stdout.split('\n')[0] as string) as { run: string }).run;
  const fleetEnv = { ...env, CMS_URL: '', CMS_USERNAME: '', CMS_APP_PASSWORD: '' };
  const empty = join(dir, 'empty.db');
  const rows = [
    await measure(bin, '`changes` on an empty store (start-up)', ['changes', '-n', '20'], { ...env, CMS_JOURNAL: empty }),
    await measure(bin, '`changes -n 20`', ['changes', '-n', '20', '--all-sites'], env),
    await measure(bin, '`invoke list-changes`', ['invoke', JSON.stringify({ tool: 'list-changes', params: { limit: 20 } })], env),
    await measure(bin, '`undo --last 1 --dry-run`', ['undo', '--last', '1', '--dry-run'], env),
    await measure(bin, `\`undo --run ID --dry-run\` (${SITES} sites)`, ['undo', '--run', runId, '--dry-run', '--sites', '@bench'], fleetEnv),
    await measure(bin, '`undo --run` of a run that does not exist (exit 1: nothing to undo)', ['undo', '--run', 'r-none', '--dry-run', '--sites', '@bench'], fleetEnv),
  ];
  // The store's own part of `undo --run` (each site's entries of the run) and of `changes -n 20`, in-process.
  const reads = await storeReads(store, keys, runId);
  SITE.log(`the store's reads: byRun over ${SITES} sites ${reads.byRun.toFixed(2)} ms, the latest 20 of a site ${reads.latest.toFixed(2)} ms`);
  const cost = await writeCost(store, keys[0] as string, me);
  SITE.log(`a write's journal cost: ${cost.toFixed(2)} ms (intent + completion, median of 50)`);
  const bytes = statSync(store).size;
  close();
  await changeStore(store).close();
  rmSync(dir, { recursive: true, force: true });
  const size = `${ENTRIES.toLocaleString('en')} entries, ${SITES} sites, ${(bytes / 1e6).toFixed(0)} MB`;
  const load = loadavg()[0]?.toFixed(1);
  const start = rows[0]?.seconds ?? 0;
  const mine = rows.map((r, i) => `| ${LABEL} | ${size} | ${r.command} | ${r.seconds.toFixed(2)} s | ${i ? `${Math.max(0, r.seconds - start).toFixed(2)} s` : '—'} | ${Math.round(r.rssMb)} MB | ${load} |${r.code ? ` exit ${r.code}` : ''}`);
  mine.push(`| ${LABEL} | ${size} | the store's part of \`undo --run\`: the run's entries of each of the ${SITES} sites (in-process, median of 20) | ${reads.byRun.toFixed(2)} ms | — | — | ${load} |`);
  mine.push(`| ${LABEL} | ${size} | the store's part of \`changes -n 20\`: the latest 20 of a site (in-process, median of 20) | ${reads.latest.toFixed(2)} ms | — | — | ${load} |`);
  mine.push(`| ${LABEL} | ${size} | a write's journal cost (intent + completion, in-process, median of 50) | ${cost.toFixed(2)} ms | — | — | ${load} |`);
  const section = [
    BEGIN,
    '## Change journal',
    '',
    `Produced by \`npm run bench:journal\` (last run ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores; the load column is the 1-minute`,
    'load average at the end of that run: other work ran beside it). The change store (issue #47: SQLite through',
    '`node:sqlite`, WAL) with entries shaped like the tools\' own (term edits, bulk assigns of 10–60 posts, role changes,',
    'undos with id maps; one in five by another account) spread over 8 sites — the bench WordPress and 7 loopback',
    'forwarders to it, so `undo --run` reads 8 real sites — the last a real change and a real fleet run. Each command',
    'runs the CLI bundled as the package\'s bin in its own process under `/usr/bin/time -v`: wall time and peak RSS,',
    `start-up included (first row); median of ${RUNS} runs. "beyond start-up": the wall time less the start-up row (undo's`,
    'rows include their reads from WordPress: 8 sites\' discovery and state for `undo --run`). Targets (issue #47): each',
    'command ≤ 0.3 s beyond start-up and ≤ 150 MB at 1,000,000 entries; a write\'s journal cost ≤ 5 ms. The JSON Lines',
    'journal before it took 0.36–0.69 s at 100,000 entries (one site) and 9 s / 1.99 GB for `undo --run` over three',
    '120,000-entry journals (the issue\'s measurement).',
    '',
    '| code | store | command | wall time | beyond start-up | peak RSS | load |',
    '|---|---|---|---|---|---|---|',
    ...mine,
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
