/**
 * The fleet section of BENCHMARKS.md (issue #38): one read and one write fanned out to 50
 * sites. The sites are a few real sandbox instances, each behind several loopback origins (the
 * tests' fault proxy, test/helpers/fault-proxy.ts), each origin with its own latency of
 * 50–300 ms added to every request (seeded, so runs compare). Measured in-process through the
 * same code as `invoke --sites` (src/sites/run.ts): wall time at --concurrency 8 and 50,
 * against the slowest single site and against one site after another; peak RSS; requests per site.
 *
 *   npm run bench:fleet [-- --sites 50] [-- --instances fleet-a,fleet-b,fleet-c]
 * Instances default to bench-fleet-1..3 on ports 8931-8933 (started and seeded when needed).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot, readCredentials, siteStatus, siteUp } from '../../src/sandbox/index.js';
import { runOnSites } from '../../src/sites/run.js';
import type { SiteProfile } from '../../src/sites/store.js';
import { callTool, findTool, OPERATORS_OWN_CALL } from '../../src/call/index.js';
import { FaultProxy, seededRandom } from '../../test/helpers/fault-proxy.js';
import { replaceSection } from './sections.js';

export const BEGIN = '<!-- fleet:begin -->';
export const END = '<!-- fleet:end -->';
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const log = (line: string) => console.error(`[bench:fleet] ${line}`);

interface Measure {
  label: string;
  concurrency: number;
  wallMs: number;
  slowestMs: number;
  sumMs: number;
  ok: number;
}

async function instances(): Promise<Array<{ url: string; username: string; appPassword: string }>> {
  const names = (arg('--instances') ?? 'bench-fleet-1,bench-fleet-2,bench-fleet-3').split(',');
  const out = [];
  for (const [i, name] of names.entries()) {
    const opts = { name, port: 8931 + i, log: () => undefined };
    const status = await siteStatus(opts);
    if (!status.running) await siteUp({ ...opts, seed: !status.seeded });
    const creds = await readCredentials(opts);
    if (!creds) throw new Error(`no credentials for ${name}`);
    out.push(creds);
  }
  return out;
}

export async function fleetSection(): Promise<string> {
  const count = Number(arg('--sites') ?? 50);
  const real = await instances();
  const random = seededRandom(38);
  const proxies: FaultProxy[] = [];
  const profiles: SiteProfile[] = [];
  const latency: number[] = [];
  for (let i = 0; i < count; i++) {
    const target = real[i % real.length] as (typeof real)[number];
    const ms = Math.round(50 + random() * 250);
    const proxy = await new FaultProxy(target.url).start();
    proxy.inject({ fault: { kind: 'delay', ms } });
    proxies.push(proxy);
    latency.push(ms);
    profiles.push({ name: `site-${String(i + 1).padStart(2, '0')}`, url: proxy.url, username: target.username, appPassword: target.appPassword, groups: [] });
  }
  // Journals of the write go to a folder of their own, not the user's.
  process.env.XDG_STATE_HOME = mkdtempSync(join(tmpdir(), 'bench-fleet-state-'));
  const read = findTool('get-cms-categories');
  const write = findTool('update-category');
  if (!read || !write) throw new Error('tools missing');
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const measure = async (label: string, tool: typeof read, params: unknown, concurrency: number): Promise<Measure> => {
    const times: number[] = [];
    const started = performance.now();
    const outcomes = await runOnSites(
      profiles,
      async (context) => {
        const t = performance.now();
        const outcome = await callTool({ tool, params }, context, {}, OPERATORS_OWN_CALL);
        times.push(performance.now() - t);
        return outcome;
      },
      { concurrency },
    );
    const wallMs = performance.now() - started;
    const ok = outcomes.filter((o) => o.ok).length;
    log(`${label} c=${concurrency}: ${Math.round(wallMs)} ms, ${ok}/${count} ok`);
    return { label, concurrency, wallMs, slowestMs: Math.max(...times), sumMs: times.reduce((a, b) => a + b, 0), ok };
  };
  const before = proxies.reduce((n, p) => n + p.events.length, 0);
  const results: Measure[] = [];
  const readParams = { limit: 20 };
  results.push(await measure('read: get-cms-categories limit 20', read, readParams, 8));
  const readRequests = (proxies.reduce((n, p) => n + p.events.length, 0) - before) / count;
  results.push(await measure('read: get-cms-categories limit 20', read, readParams, 50));
  results.push(await measure('read: get-cms-categories limit 20', read, readParams, 1));
  const mid = proxies.reduce((n, p) => n + p.events.length, 0);
  const writeParams = (n: number) => ({ id: 1, description: `fleet bench ${Date.now()} ${n}` });
  results.push(await measure('write: update-category (journalled)', write, writeParams(1), 8));
  const writeRequests = (proxies.reduce((n, p) => n + p.events.length, 0) - mid) / count;
  results.push(await measure('write: update-category (journalled)', write, writeParams(2), 50));
  results.push(await measure('write: update-category (journalled)', write, writeParams(3), 1));
  clearInterval(sampler);
  for (const proxy of proxies) await proxy.stop();
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const sequential = (label: string) => results.find((r) => r.label === label && r.concurrency === 1)?.wallMs ?? Number.NaN;
  const rows = results.map(
    (r) =>
      `| ${r.label} | ${r.concurrency} | ${s(r.wallMs)} | ${s(r.slowestMs)} | ${(r.wallMs / r.slowestMs).toFixed(1)}× | ${(sequential(r.label) / r.wallMs).toFixed(1)}× | ${r.ok}/${count} |`,
  );
  return `${BEGIN}
## Fleet: one call on ${count} sites (issue #38)

${count} loopback origins in front of ${real.length} real sandbox instances (WordPress ${(await siteStatus({ name: (arg('--instances') ?? 'bench-fleet-1').split(',')[0] })).wordpress ?? '?'}), each origin
adding its own latency to every request: ${Math.min(...latency)}–${Math.max(...latency)} ms (seeded; mean ${Math.round(latency.reduce((a, b) => a + b, 0) / count)} ms).
The fan-out is \`runOnSites\` (src/sites/run.ts), the code of \`invoke --sites\`. "Slowest site" is
the longest single site's call within that run (it grows with concurrency: the ${real.length} PHP built-in
servers behind the origins answer one request at a time each, so requests queue there — real
sites, each its own server, would not share that queue); "sequential" is the concurrency-1 run,
one site after another. Measured on a shared, loaded 2-core machine
(load ${(await import('node:os')).loadavg()[0]?.toFixed(1)}): compare the ratios, not the seconds.

| call | concurrency | wall | slowest site | wall / slowest | faster than sequential | ok |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Requests per site, counted at the origins: read ${readRequests.toFixed(1)}, write ${writeRequests.toFixed(1)} (the
write also reads the state before and after it for the change journal).
Peak RSS of the process over the whole section: ${Math.round(peakRss / 1024 / 1024)} MB.
${END}`;
}

if (process.argv[1]?.endsWith('fleet.ts')) {
  fleetSection()
    .then((section) => replaceSection(join(packageRoot(), 'BENCHMARKS.md'), BEGIN, END, section))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
