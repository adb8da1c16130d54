/**
 * `npm run bench:cleanup` (#51): the taxonomy clean-up tools against doing the same with the
 * existing tools one call at a time, on a site of their own (scripts/bench/cleanup-site.php:
 * 5,000 unused tags, 50 categories on 5,000 posts of four statuses), restored before each run:
 *   - prune-terms on the 5,000 unused tags vs delete-tag per tag;
 *   - migrate-terms of the 50 categories into tags vs, per category, create-tag, find-posts,
 *     assign-tags-to-posts and delete-category.
 * Wall time, HTTP requests (counted by the client), and the peak heap the process grew by during
 * the job (sampled every 5 ms). Each call through the pipeline with a memory journal, as the CLI
 * journals. Writes the "Taxonomy clean-up" section of BENCHMARKS.md.
 *
 *   npm run bench:cleanup [-- --runs 3 --sample 250]
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { replaceSection } from './sections.js';
import { benchInstance, grownSite, keptSection, withHeapPeak } from './bench-site.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { packageRoot, restoreSnapshot, siteStatus } from '../../src/sandbox/index.js';
import type { ToolContext } from '../../src/call/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { callTool, freshContext, median } from './measure.js';

export const BEGIN = '<!-- cleanup:begin -->';
export const END = '<!-- cleanup:end -->';
const file = join(packageRoot(), 'BENCHMARKS.md');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('--runs', 3);
/** delete-tag one call at a time on this many tags, scaled to 5,000 (a full run takes ~20 minutes). */
const SAMPLE = arg('--sample', 250);
const SITE = benchInstance('bench:cleanup', { name: 'cleanup-bench', port: 9302, portVar: 'CMS_BENCH_CLEANUP_PORT' });
const SNAPSHOT = 'bench_cleanup';

/** The section as it is in BENCHMARKS.md now, for `npm run bench` to keep. */
export const cleanupSection = (): Promise<string> => keptSection(BEGIN, END);

interface Seeded {
  tags: number[];
  categories: number[];
  posts: number;
}

async function cleanupSite(): Promise<{ site: SandboxCredentials; seeded: Seeded }> {
  const { creds, grown } = await grownSite<Seeded & { seconds: number }>(SITE, { snapshot: SNAPSHOT, script: 'cleanup-site.php', fresh: true });
  return { site: creds, seeded: grown as Seeded };
}

interface Sample {
  ms: number;
  requests: number;
  calls: number;
  heapMb: number;
}

/** Runs `job` on a fresh journalled context after restoring the site; time, requests, peak heap growth. */
async function sample(site: SandboxCredentials, job: (context: ToolContext) => Promise<number>): Promise<Sample> {
  await restoreSnapshot({ ...SITE, log: () => {} }, SNAPSHOT);
  const context = Object.assign(await freshContext(site), { journal: memoryJournal() });
  const started = performance.now();
  const { value: calls, heapMb } = await withHeapPeak(() => job(context), 5);
  return { ms: performance.now() - started, requests: context.client.stats.requests, calls, heapMb };
}

async function runs(site: SandboxCredentials, n: number, job: (context: ToolContext) => Promise<number>) {
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) samples.push(await sample(site, job));
  const ms = median(samples.map((s) => s.ms));
  const mid = samples.reduce((a, b) => (Math.abs(b.ms - ms) < Math.abs(a.ms - ms) ? b : a));
  return { ...mid, ms, heapMb: Math.max(...samples.map((s) => s.heapMb)) };
}

type Row = Sample & { label: string; note?: string };
const row = (r: Row) =>
  `| ${r.label} | ${Math.round(r.ms).toLocaleString('en')} ms | ${r.requests.toLocaleString('en')} | ${r.calls.toLocaleString('en')} | ${r.heapMb.toFixed(1)} MB |${r.note ? ` ${r.note}` : ''}`;

async function main() {
  const { site, seeded } = await cleanupSite();
  const rows: Row[][] = [[], []];

  const prune = await runs(site, RUNS, async (c) => {
    const result = (await callTool(c, 'prune-terms', { taxonomy: 'post_tag', search: 'Prune Tag' })) as { deleted: number };
    if (result.deleted !== seeded.tags.length) throw new Error(`prune-terms deleted ${result.deleted}`);
    return 1;
  });
  rows[0]!.push({ label: '**prune-terms** (companion plugin, journalled)', ...prune });
  const one = await runs(site, 1, async (c) => {
    for (const id of seeded.tags.slice(0, SAMPLE)) await callTool(c, 'delete-tag', { id });
    return SAMPLE;
  });
  const scale = seeded.tags.length / SAMPLE;
  rows[0]!.push({
    label: `delete-tag per tag, one call at a time (${SAMPLE} measured, ×${scale})`,
    ms: one.ms * scale,
    requests: Math.round(one.requests * scale),
    calls: Math.round(one.calls * scale),
    heapMb: one.heapMb,
    note: '',
  });

  const migrate = await runs(site, RUNS, async (c) => {
    const result = (await callTool(c, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: seeded.categories })) as {
      posts_changed: number;
    };
    if (result.posts_changed !== seeded.posts) throw new Error(`migrate-terms changed ${result.posts_changed} posts`);
    return 1;
  });
  rows[1]!.push({ label: '**migrate-terms** (companion plugin, journalled)', ...migrate });
  const byHand = await runs(site, 1, async (c) => {
    let calls = 0;
    for (const id of seeded.categories) {
      const name = `Migrate Cat ${String(seeded.categories.indexOf(id) + 1).padStart(2, '0')}`;
      const tag = (await callTool(c, 'create-tag', { name })) as { id: number };
      const postIds: number[] = [];
      let cursor: string | undefined;
      do {
        const page = (await callTool(c, 'find-posts', { taxonomy: 'category', term_ids: [id], status: 'any', limit: 500, ...(cursor ? { cursor } : {}) })) as {
          items: Array<{ id: number }>;
          next_cursor: string | null;
        };
        postIds.push(...page.items.map((p) => p.id));
        cursor = page.next_cursor ?? undefined;
        calls++;
      } while (cursor);
      await callTool(c, 'assign-tags-to-posts', { post_ids: postIds, tag_ids: [tag.id] });
      await callTool(c, 'delete-category', { id, force: true });
      calls += 3;
    }
    return calls;
  });
  rows[1]!.push({ label: 'create-tag, find-posts, assign-tags-to-posts, delete-category per category', ...byHand });

  await restoreSnapshot(SITE, SNAPSHOT);
  const wordpress = (await siteStatus(SITE)).wordpress;
  const head = ['| approach | wall time | HTTP requests | tool calls | peak heap growth |', '|---|---|---|---|---|'];
  const ratio = (a: Sample, b: Sample) => `${(b.ms / a.ms).toFixed(1)}× faster, ${(b.requests / a.requests).toFixed(1)}× fewer requests`;
  const section = [
    BEGIN,
    '## Taxonomy clean-up (issue #51)',
    '',
    `Produced by \`npm run bench:cleanup\` on ${new Date().toISOString().slice(0, 10)} (tools: ${RUNS} runs, median; one call at a time: 1 run;`,
    `1-minute load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores at the end), WordPress ${wordpress}, companion plugin 0.6.0,`,
    `on the seeded sandbox grown by scripts/bench/cleanup-site.php (${seeded.tags.length.toLocaleString('en')} unused tags, ${seeded.categories.length} categories`,
    `on ${seeded.posts.toLocaleString('en')} posts of four statuses), restored before every run. Every call through the pipeline with a change`,
    'journal (memory), as the CLI journals: the state before and after is read too. Peak heap: the most the',
    "process's heap grew during the job (sampled every 5 ms; WordPress's own memory not included).",
    '',
    `### Prune ${seeded.tags.length.toLocaleString('en')} unused tags`,
    '',
    ...head,
    ...rows[0]!.map(row),
    '',
    `prune-terms: ${ratio(prune, rows[0]![1]!)} than delete-tag one tag at a time (scaled from ${SAMPLE} tags).`,
    '',
    `### Turn ${seeded.categories.length} categories on ${seeded.posts.toLocaleString('en')} posts into tags`,
    '',
    ...head,
    ...rows[1]!.map(row),
    '',
    `migrate-terms: ${ratio(migrate, byHand)} than the existing tools one call at a time.`,
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
