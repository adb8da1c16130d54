/**
 * `npm run bench:backends`: per sandbox backend, the time of `site up` cold (a new instance:
 * database, WordPress install, application password; the WordPress core and the Playground CLI
 * already cached) and warm (down, then up again), and of a typical read tool call
 * (get-cms-categories on a fresh install, median of 5). Writes the "Sandbox backends" section of
 * BENCHMARKS.md, which `npm run bench` keeps.
 */
import { rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { replaceSection } from './sections.js';
import { keptSection } from './bench-site.js';
import { createContext } from '../../src/config.js';
import { invoke } from '../../src/call/envelope.js';
import { packageRoot, resolveInstance, siteDown, siteStatus, siteUp } from '../../src/sandbox/index.js';

export const BEGIN = '<!-- sandbox-backends:begin -->';
export const END = '<!-- sandbox-backends:end -->';
const file = join(packageRoot(), 'BENCHMARKS.md');

/** The section as it is in BENCHMARKS.md now, for `npm run bench` to keep. */
export const backendSection = (): Promise<string> => keptSection(BEGIN, END);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return Math.round(performance.now() - t);
};

async function measure(backend: 'native' | 'playground', port: number) {
  const opts = { name: `bench-${backend}`, port, backend, log: (l: string) => console.error(`[${backend}] ${l}`) };
  await siteDown(opts).catch(() => undefined);
  await rm(resolveInstance(opts).dir, { recursive: true, force: true });
  // A first start fills the caches (WordPress core, Playground CLI) that "cold" excludes.
  let creds = await siteUp(opts);
  await siteDown(opts);
  await rm(resolveInstance(opts).dir, { recursive: true, force: true });
  const coldMs = await time(async () => {
    creds = await siteUp(opts);
  });
  await siteDown(opts);
  const warmMs = await time(async () => {
    creds = await siteUp(opts);
  });
  const context = createContext({ url: creds.url, username: creds.username, appPassword: creds.appPassword });
  await context.client.connect();
  const calls: number[] = [];
  for (let i = 0; i < 5; i++) calls.push(await time(() => invoke({ tool: 'get-cms-categories' }, context)));
  const { wordpress } = await siteStatus(opts);
  await siteDown(opts);
  await rm(resolveInstance(opts).dir, { recursive: true, force: true });
  return { backend, wordpress, coldMs, warmMs, callMs: median(calls) };
}

async function main() {
  const port = Number(process.env.CMS_BENCH_PORT ?? 8930);
  const rows = [await measure('native', port), await measure('playground', port)];
  const load = loadavg()[0]?.toFixed(1);
  const section = [
    BEGIN,
    '## Sandbox backends',
    '',
    `Produced by \`npm run bench:backends\` on ${new Date().toISOString().slice(0, 10)} (1-minute load average ${load} on ${cpus().length} cores at`,
    "the end, Playground's own work included). Cold: a new instance (WordPress core and Playground",
    'CLI already cached); warm: `site down`, then `site up`.',
    '',
    '| backend | WordPress | `site up` cold | `site up` warm | get-cms-categories (median of 5) |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.backend} | ${r.wordpress} | ${(r.coldMs / 1000).toFixed(1)} s | ${(r.warmMs / 1000).toFixed(1)} s | ${r.callMs} ms |`),
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
