/**
 * `npm run bench:floors` (#61): each bulk job beside its floor — WordPress doing the same job in
 * one PHP process on the same sandbox (floor-loops.php), in the same run, right after our tool,
 * on a like set of items — with wall time, requests, CPU and the ratios, and the load average.
 * Writes the "Bulk work against its floor" section of BENCHMARKS.md (`npm run bench` runs it too).
 *
 *   npm run bench:floors [-- --jobs import-users,set-users-role,prune-terms,migrate-terms,find-duplicate-terms,list-users] [--small] [--import-sizes 1000]
 *
 * `--import-sizes` replaces import-users' sizes (1,000 and 10,000): at ~0.5 s of bcrypt and the
 * new-user email per account on each side, 10,000 takes hours on 2 cores.
 *
 * Its own sandbox instance (CMS_BENCH_FLOORS or `bench-floors`, port CMS_BENCH_FLOORS_PORT or
 * 8936), seeded again before each job and left seeded.
 */
import { cpus, loadavg } from 'node:os';
import { siteSeed, siteStatus, siteUp } from '../../src/sandbox/index.js';
import { BENCHMARKS, benchInstance, credentialsOf } from './bench-site.js';
import { type FloorRow, FULL, JOBS, SMALL } from './floor-jobs.js';
import { replaceSection } from './sections.js';

export const BEGIN = '<!-- floors:begin -->';
export const END = '<!-- floors:end -->';

export interface FloorOptions {
  /** Jobs to run (default all, in JOBS' order). */
  jobs?: string[];
  small?: boolean;
  /** import-users' sizes instead of the default ones (`--import-sizes 1000,10000`). */
  importSizes?: number[];
}

export function floorOptions(argv: string[]): FloorOptions {
  const at = argv.indexOf('--jobs');
  const jobs = at > 0 ? (argv[at + 1] ?? '').split(',').filter(Boolean) : undefined;
  const unknown = (jobs ?? []).filter((job) => !(job in JOBS));
  if (unknown.length) throw new Error(`unknown job(s) ${unknown.join(', ')}: ${Object.keys(JOBS).join(', ')}`);
  const sizesAt = argv.indexOf('--import-sizes');
  const importSizes = sizesAt > 0 ? (argv[sizesAt + 1] ?? '').split(',').filter(Boolean).map(Number) : undefined;
  if (importSizes?.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`--import-sizes ${argv[sizesAt + 1]}: expected sizes like 1000,10000`);
  return { jobs, small: argv.includes('--small'), importSizes };
}

/** Runs the jobs and answers the section (rows of jobs not run this time are kept from BENCHMARKS.md). */
export async function floorsSection(options: FloorOptions = {}, kept = ''): Promise<string> {
  const site = benchInstance('bench:floors', { name: 'bench-floors', nameVar: 'CMS_BENCH_FLOORS', port: 8936, portVar: 'CMS_BENCH_FLOORS_PORT' });
  await siteUp(site);
  const creds = await credentialsOf(site);
  const sizes = { ...(options.small ? SMALL : FULL), ...(options.importSizes && { import: options.importSizes }) };
  const rows: FloorRow[] = [];
  for (const job of options.jobs ?? Object.keys(JOBS)) {
    site.log(`${job}…`);
    const done = await JOBS[job]!(site, creds, sizes);
    for (const row of done) site.log(`${row.job}, ${row.size}: ${JSON.stringify({ tool: row.tool, floor: row.floor, load: row.load })}`);
    rows.push(...done);
  }
  await siteSeed({ ...site, log: () => {} });
  const wordpress = (await siteStatus(site)).wordpress;
  const ran = new Set(rows.map((r) => r.job));
  const jobOf = (row: string) => row.split('|')[1]?.trim().replace(/`/g, '') ?? '';
  const old = kept.split('\n').filter((row) => /^\| [`a-z]/.test(row) && !row.startsWith('| job ') && !ran.has(jobOf(row)));
  // In JOBS' order, an undo after its job.
  const order = (row: string) => Object.keys(JOBS).indexOf(jobOf(row).replace(/^undo of /, '')) * 2 + (jobOf(row).startsWith('undo of ') ? 1 : 0);
  const lines = [...rows.map(line), ...old].sort((a, b) => order(a) - order(b));
  return render(lines, wordpress ?? '?', options.small === true);
}

const ms = (x: number) => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');

function line(r: FloorRow): string {
  const cells = [
    r.job.replace(/[a-z]+-[a-z-]+/, (name) => `\`${name}\``),
    r.size,
    ms(r.tool.ms),
    String(r.tool.requests),
    ms(r.tool.cpuMs),
    ms(r.floor.ms),
    ms(r.floor.cpuMs),
    `**${ratio(r.tool.ms, r.floor.ms)}**`,
    ratio(r.tool.cpuMs, r.floor.cpuMs),
    r.load.toFixed(1),
    r.note ?? '',
  ];
  return `| ${cells.join(' | ')} |`;
}

function render(lines: string[], wordpress: string, small: boolean): string {
  return [
    BEGIN,
    '## Bulk work against its floor (issue #61)',
    '',
    `Produced by \`npm run bench:floors${small ? ' -- --small' : ''}\` on ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores; 1-minute load average ${loadavg()[0]?.toFixed(1)} at the end, per row in "load") on the seeded sandbox, WordPress ${wordpress}, companion plugin 0.7.0.`,
    "The floor is WordPress doing the same job in one PHP process on the same sandbox, right after our tool in the same run, on a like set of items (fixtures: scripts/bench/floor-site.php; loops: scripts/bench/floor-loops.php — `wp_insert_user` with WordPress's new-user email, `wp_delete_user`, `WP_User::set_role`, `wp_delete_term`, `wp term migrate`'s steps, one SQL aggregate and the grouping, `get_users`; WP-CLI is not installable here, so the loop stands in for it, WordPress's start-up not counted).",
    'Ours: the tool through the call pipeline with a change journal, as the CLI runs it; requests counted by the client (who is signed in is asked before timing); CPU = this Node process + the site\'s PHP server + MariaDB during the job. The floor\'s CPU = its PHP process during the loop + MariaDB. Target: every job ≤ 2× the floor\'s wall time on a quiet machine.',
    ...(small ? ['', '**Small sizes, to prove each job runs (`--small`): not the sizes of the issue, and not numbers to compare.**'] : []),
    '',
    '| job | size | time | requests | CPU | floor: time | floor: CPU | time ratio | CPU ratio | load | notes |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...lines,
    END,
  ].join('\n');
}

async function main() {
  const { keptSection } = await import('./bench-site.js');
  const options = floorOptions(process.argv);
  const section = await floorsSection(options, options.jobs ? await keptSection(BEGIN, END) : '');
  await replaceSection(BENCHMARKS, BEGIN, END, section);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
