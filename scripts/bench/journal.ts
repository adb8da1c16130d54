/**
 * `npm run bench:journal`: what reading the latest changes costs with a journal of 100,000
 * realistic entries (~130 MB; issue #34, finding 5). Builds the journal (entries shaped like the
 * tools' own: term edits, bulk assigns of 10–60 posts, role changes, undos with id maps), ends
 * it with one real change on the bench site, then runs the CLI as a user would, each command in
 * its own process under /usr/bin/time -v (wall time, peak RSS): `changes -n 20`, `invoke
 * list-changes`, `undo --last 1 --dry-run`, `undo --last 1 --yes`, and `changes` on an empty
 * journal (the CLI's start through tsx, which every row includes).
 *
 *   npm run bench:journal [-- --root DIR --label before] [--entries 100000]
 *
 * `--root` measures another checkout (the code before a change: `git worktree add /tmp/old REV`,
 * with node_modules linked); each label's rows replace only that label's rows in BENCHMARKS.md.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createContext } from '../../src/config.js';
import { packageRoot, readCredentials, siteUp } from '../../src/sandbox/index.js';
import { runTool, findTool } from '../../src/call/index.js';
import { fileJournal } from '../../src/undo/journal.js';
import { replaceSection } from './sections.js';

const run = promisify(execFile);
export const BEGIN = '<!-- journal:begin -->';
export const END = '<!-- journal:end -->';
const file = join(packageRoot(), 'BENCHMARKS.md');
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const ROOT = arg('--root') ?? packageRoot();
const LABEL = arg('--label') ?? 'after';
const ENTRIES = Number(arg('--entries') ?? 100_000);
/** Bytes added to each entry's summary: 470 makes the 100,000 entries ~132 MB, the size issue #34 measured. */
const PAD = Number(arg('--pad') ?? 0);
/** Runs of each read-only command (median time, highest RSS); `undo --yes` runs once (it changes the site). */
const RUNS = Number(arg('--runs') ?? 3);
// Recent entries (one every 30 s up to now): the automatic rotation moves only entries past 90 days.
const START = Date.now() - ENTRIES * 30_000;
const SITE = { name: 'bench-journal', port: Number(process.env.CMS_BENCH_JOURNAL_PORT ?? 8932), log: (l: string) => console.error(`[bench:journal] ${l}`) };

/** The section as it is in BENCHMARKS.md now, for `npm run bench` to keep. */
export async function journalSection(): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  return start >= 0 && end > start ? `\n${text.slice(start, end + END.length)}\n` : '';
}

let seq = 0;
/** One entry like the tools write (src/undo/record.ts), ~1.3 KB on average. */
function syntheticEntry(i: number, user: string): string {
  const at = new Date(START + i * 30_000).toISOString();
  const change_id = `c${(START + i * 30_000).toString(36)}${(seq++ % 65536).toString(16).padStart(4, '0')}`;
  const pad = PAD ? ` ${'·'.repeat(PAD / 2)}` : '';
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

/** The journal: ENTRIES - 1 synthetic lines, then one real change on the site (what undo takes back). */
async function buildJournal(path: string, site: Awaited<ReturnType<typeof readCredentials>> & object): Promise<number> {
  const out = createWriteStream(path, { mode: 0o600 });
  for (let i = 0; i < ENTRIES - 1; i++) {
    // One in five by another account: each sees only their own.
    if (!out.write(`${syntheticEntry(i, i % 5 === 4 ? 'editor1' : site.username)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  const context = Object.assign(createContext(site), { journal: fileJournal(path) });
  const made = await runTool(findTool('create-category')!, context, { name: `Journal bench ${Date.now().toString(36)}` });
  if (!made.ok) throw new Error(`the real change failed: ${JSON.stringify(made.error)}`);
  return statSync(path).size;
}

interface Row { command: string; seconds: number; rssMb: number; code: number }

/**
 * The checkout's `cms-admin` bin, built by that checkout's own scripts/build-bin.mjs into its
 * dist/cli/ (the code before is measured with the bin it shipped, not with today's build rules).
 */
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

/** One CLI command of the checkout ROOT in its own process: wall time and peak memory. */
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
  return row;
}

async function main() {
  await siteUp(SITE);
  const site = await readCredentials(SITE);
  if (!site) throw new Error('bench-journal sandbox has no credentials');
  const dir = mkdtempSync(join(tmpdir(), 'bench-journal-'));
  const journal = join(dir, 'changes.jsonl');
  const bytes = await buildJournal(journal, site);
  SITE.log(`journal: ${ENTRIES} entries, ${(bytes / 1e6).toFixed(0)} MB`);
  const env = { CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: journal };
  const empty = join(dir, 'empty.jsonl');
  const bin = await buildBin();
  const rows = [
    await measure(bin, '`changes` on an empty journal (start-up)', ['changes', '-n', '20'], { ...env, CMS_JOURNAL: empty }),
    await measure(bin, '`changes -n 20`', ['changes', '-n', '20'], env),
    await measure(bin, '`invoke list-changes`', ['invoke', JSON.stringify({ tool: 'list-changes', params: { limit: 20 } })], env),
    await measure(bin, '`undo --last 1 --dry-run`', ['undo', '--last', '1', '--dry-run'], env),
    await measure(bin, '`undo --last 1 --yes`', ['undo', '--last', '1', '--yes'], env, 1),
  ];
  rmSync(dir, { recursive: true, force: true });
  const size = `${ENTRIES.toLocaleString('en')} entries, ${(bytes / 1e6).toFixed(0)} MB`;
  const load = loadavg()[0]?.toFixed(1);
  const start = rows[0]?.seconds ?? 0;
  const mine = rows.map((r, i) => `| ${LABEL} | ${size} | ${r.command} | ${r.seconds.toFixed(2)} s | ${i ? `${Math.max(0, r.seconds - start).toFixed(2)} s` : '—'} | ${Math.round(r.rssMb)} MB | ${load} |${r.code ? ` exit ${r.code}` : ''}`);
  const old = (await journalSection()).split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| code') && !l.startsWith(`| ${LABEL} |`));
  const section = [
    BEGIN,
    '## Change journal',
    '',
    `Produced by \`npm run bench:journal\` (last run ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores; the load column is the 1-minute`,
    'load average at the end of that run: other work ran beside it). A journal of realistic entries (term edits, bulk',
    'assigns of 10–60 posts, role changes, undos with id maps; one in five by another account; `--pad` lengthens the',
    'summaries to reach the 132 MB of issue #34), the last one a real change on the bench site. Each',
    'command runs the CLI bundled as the package\'s bin (esbuild, as `npm run build`) in its own process under',
    '`/usr/bin/time -v`: wall time and peak RSS, start-up included (first row). "before" is the code before',
    `issue #34 (a \`git worktree\` of 632ea40, \`--root /tmp/old --label before\`, one run each). Read-only commands: median of ${RUNS}`,
    'runs; `undo --yes` runs once. "beyond start-up": the wall time less the start-up row of the same run (the undo\'s',
    'includes its reads from WordPress). Target (issue #34): under 1 s and 150 MB at 100,000 entries.',
    '',
    '| code | journal | command | wall time | beyond start-up | peak RSS | load |',
    '|---|---|---|---|---|---|---|',
    ...[...old, ...mine].sort((a, b) => (a.startsWith('| before') === b.startsWith('| before') ? 0 : a.startsWith('| before') ? -1 : 1)),
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
