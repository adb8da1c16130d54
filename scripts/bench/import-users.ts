/**
 * `npm run bench:import`: import-users of 1,000 and 10,000 CSV rows (#50) on the sandbox
 * (instance CMS_BENCH_IMPORT or `bench-import`, port CMS_BENCH_IMPORT_PORT or 8933; seeded, and
 * left as seeded): the dry run, the import (accounts created by `/batch/v1`, each sent
 * WordPress's new-user email through the companion plugin, batched too) and its undo (every
 * account deleted again), each with wall time, HTTP requests and the process's peak heap
 * (sampled every 20 ms, over the heap before the call). Writes the "import-users" section of
 * BENCHMARKS.md, which `npm run bench` keeps.
 *
 *   npm run bench:import [-- --sizes 1000,10000]
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../../src/config.js';
import { packageRoot, siteSeed, siteStatus, siteUp } from '../../src/sandbox/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import type { ToolContext } from '../../src/call/index.js';
import { callTool } from './measure.js';
import { replaceSection } from './sections.js';
import { benchInstance, credentialsOf, keptSection, withHeapPeak } from './bench-site.js';

export const BEGIN = '<!-- import-users:begin -->';
export const END = '<!-- import-users:end -->';
const file = join(packageRoot(), 'BENCHMARKS.md');
const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? (process.argv[sizesArg + 1] ?? '').split(',').map(Number) : [1000, 10_000];
const SITE = benchInstance('bench:import', { name: 'bench-import', nameVar: 'CMS_BENCH_IMPORT', port: 8933, portVar: 'CMS_BENCH_IMPORT_PORT' });

/** The section as it is in BENCHMARKS.md now, for `npm run bench` to keep. */
export const importSection = (): Promise<string> => keptSection(BEGIN, END);

function csvOf(rows: number): string {
  const tag = Date.now().toString(36);
  const lines = ['user_login,user_email,display_name,first_name,last_name,role'];
  for (let i = 0; i < rows; i++) lines.push(`bi_${tag}_${i},bi_${tag}_${i}@example.org,"Person ${i}, Jr.",Per${i},Son${i},${i % 10 ? 'subscriber' : 'author'}`);
  return `${lines.join('\n')}\n`;
}

interface Step {
  ms: number;
  requests: number;
  heapMb: number;
}

/** Time, requests and peak heap growth of one step, on a client whose counter starts at zero. */
async function step(context: ToolContext, job: () => Promise<unknown>): Promise<Step> {
  context.client.stats.requests = 0;
  const started = performance.now();
  const { heapMb } = await withHeapPeak(job);
  return { ms: performance.now() - started, requests: context.client.stats.requests, heapMb };
}

async function main() {
  await siteUp(SITE);
  await siteSeed(SITE);
  const site = await credentialsOf(SITE);
  const rows: string[] = [];
  for (const size of SIZES) {
    const csv = csvOf(size);
    const journal = memoryJournal();
    const context = createContext(site, { journal });
    await context.client.connect();
    const dry = await step(context, () => callTool(context, 'import-users', { csv, dry_run: true }));
    let result: { counts?: Record<string, number> } = {};
    const run = await step(context, async () => {
      result = (await callTool(context, 'import-users', { csv })) as typeof result;
    });
    if (result.counts?.created !== size) throw new Error(`created ${JSON.stringify(result.counts)}`);
    const undo = await step(context, async () => {
      const report = await undoChange(context, journal);
      if (report.conflicts.length) throw new Error(`undo conflicts: ${JSON.stringify(report.conflicts.slice(0, 3))}`);
    });
    SITE.log(`${size} rows: ${JSON.stringify({ dry, run, undo })}`);
    const cell = (s: Step, b = '') => `${b}${(s.ms / 1000).toFixed(1)} s${b} | ${b}${s.requests}${b} | ${b}${s.heapMb.toFixed(0)} MB${b}`;
    rows.push(`| ${size.toLocaleString('en')} | ${cell(dry)} | ${cell(run, '**')} | ${cell(undo)} |`);
  }
  // Sizes not measured this time keep their rows (`--sizes 10000` alone takes most of an hour).
  const kept = (await importSection())
    .split('\n')
    .filter((line) => /^\| [\d,]+ \|/.test(line) && !SIZES.some((n) => line.startsWith(`| ${n.toLocaleString('en')} |`)));
  rows.unshift(...kept);
  rows.sort((a, b) => Number(a.split('|')[1]?.replace(/\D/g, '')) - Number(b.split('|')[1]?.replace(/\D/g, '')));
  const wordpress = (await siteStatus(SITE)).wordpress;
  await siteSeed(SITE);
  const section = [
    BEGIN,
    '## import-users',
    '',
    `Produced by \`npm run bench:import\` on ${new Date().toISOString().slice(0, 10)} (one run each, sizes may come from separate runs; 1-minute load average`,
    `${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores at the end) on the seeded sandbox (WordPress ${wordpress}, companion plugin).`,
    'New accounts from CSV rows (display name, first and last name, every tenth an author), each sent',
    'WordPress’s new-user email; then the undo deletes them all. Requests: HTTP requests counted by the',
    'client (accounts created 25 to a `/batch/v1` request, the emails likewise). Heap: the peak growth of',
    'the process’s JS heap during the step, sampled every 20 ms. The import’s time is WordPress’s: each new',
    'account’s password is hashed with bcrypt (WordPress 6.8+; about 0.18 s of PHP each on this machine alone),',
    'so it grows with the rows and the load, while requests and memory stay bounded (100 rows a step).',
    '',
    '| rows | dry run | requests | heap | **import** | **requests** | **heap** | undo | requests | heap |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
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
