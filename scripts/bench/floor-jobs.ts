/**
 * The jobs of `npm run bench:floors` (#61), each done twice on one site: by our tool (through
 * runTool with a memory journal, as the CLI journals) on set A of its fixtures, and by WordPress
 * in one PHP process (floor-loops.php) on the like set B. Fixtures: floor-site.php.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../../src/config.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { resolveInstance, siteSeed } from '../../src/sandbox/index.js';
import { runWpScript } from '../../src/sandbox/wp-scripts.js';
import type { ToolContext } from '../../src/call/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { type BenchInstance, instanceCpuMs, withCpu } from './bench-site.js';
import { walk } from './large-site.js';
import { callTool } from './measure.js';

export interface Side {
  ms: number;
  /** HTTP requests to WordPress (the tool's; the floor makes none). */
  requests: number;
  /** CPU ms: the tool's Node process, PHP server and MariaDB; the floor's PHP process and MariaDB. */
  cpuMs: number;
}

export interface FloorRow {
  job: string;
  size: string;
  tool: Side;
  floor: Side;
  /** 1-minute load average when the row was done. */
  load: number;
  note?: string;
}

export interface FloorSizes {
  import: number[];
  roles: number;
  prune: number;
  migrate: { cats: number; posts: number };
  duplicates: number;
  users: number;
}

export const FULL: FloorSizes = { import: [1000, 10_000], roles: 1000, prune: 5000, migrate: { cats: 50, posts: 5000 }, duplicates: 25_000, users: 5000 };
/** `--small`: every job once at a size that proves it works in a few minutes (numbers not to compare). */
export const SMALL: FloorSizes = { import: [40], roles: 60, prune: 300, migrate: { cats: 5, posts: 300 }, duplicates: 2500, users: 400 };

const n = (x: number) => x.toLocaleString('en');

/** A journalled context, connected (who is signed in is asked before timing, once per client). */
async function toolContext(creds: SandboxCredentials): Promise<ToolContext & { journal: ReturnType<typeof memoryJournal> }> {
  const context = createContext(creds, { journal: memoryJournal() }) as ToolContext & { journal: ReturnType<typeof memoryJournal> };
  await context.client.connect();
  context.client.stats.requests = 0;
  return context;
}

/** Our side of a job: wall time, requests, CPU of Node + the site's PHP + MariaDB. */
async function ours<T>(site: BenchInstance, context: ToolContext, job: () => Promise<T>): Promise<{ side: Side; value: T }> {
  context.client.stats.requests = 0;
  const { value, ms, cpu } = await withCpu(site, job);
  return { side: { ms, requests: context.client.stats.requests, cpuMs: cpu.node + cpu.php + cpu.db }, value };
}

/** The floor: floor-loops.php for `job` on `input`, its loop's time and CPU plus MariaDB's meanwhile. */
async function floor(site: BenchInstance, job: string, input: unknown, output?: string): Promise<Side & { done: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-floor-'));
  await writeFile(join(dir, 'input.json'), JSON.stringify(input));
  const db = instanceCpuMs(site).db;
  const answer = await runWpScript<{ ms: number; cpu_ms: number; done: number }>(resolveInstance(site), site.port, '../bench/floor-loops.php', {
    CMS_FLOOR_JOB: job,
    CMS_FLOOR_INPUT: join(dir, 'input.json'),
    ...(output ? { CMS_FLOOR_OUTPUT: output } : {}),
  });
  return { ms: answer.ms, requests: 0, cpuMs: answer.cpu_ms + instanceCpuMs(site).db - db, done: answer.done };
}

/** The seeded site with this job's fixtures. */
async function fixtures<T>(site: BenchInstance, job: string, size: number, env: Record<string, string> = {}): Promise<T> {
  await siteSeed({ ...site, log: () => {} });
  return runWpScript<T>(resolveInstance(site), site.port, '../bench/floor-site.php', { CMS_FLOOR_JOB: job, CMS_FLOOR_SIZE: String(size), ...env });
}

function expectDone(what: string, got: number, want: number) {
  if (got !== want) throw new Error(`${what}: did ${got} of ${want}`);
}


export const JOBS: Record<string, (site: BenchInstance, creds: SandboxCredentials, sizes: FloorSizes) => Promise<FloorRow[]>> = {
  async 'import-users'(site, creds, sizes) {
    const rows: FloorRow[] = [];
    for (const size of sizes.import) {
      await siteSeed({ ...site, log: () => {} });
      const tag = Date.now().toString(36);
      const row = (side: string, i: number) => ({
        user_login: `fi_${side}_${tag}_${i}`,
        user_email: `fi_${side}_${tag}_${i}@example.org`,
        display_name: `Person ${i}, Jr.`,
        first_name: `Per${i}`,
        last_name: `Son${i}`,
        role: i % 10 ? 'subscriber' : 'author',
      });
      const csv = ['user_login,user_email,display_name,first_name,last_name,role', ...Array.from({ length: size }, (_, i) => {
        const r = row('t', i);
        return `${r.user_login},${r.user_email},"${r.display_name}",${r.first_name},${r.last_name},${r.role}`;
      })].join('\n');
      const context = await toolContext(creds);
      const imported = await ours(site, context, () => callTool(context, 'import-users', { csv }) as Promise<{ counts?: { created?: number } }>);
      expectDone('import-users', imported.value.counts?.created ?? 0, size);
      const undone = await ours(site, context, () => undoChange(context, context.journal));
      const ids = join(await mkdtemp(join(tmpdir(), 'bench-floor-')), 'ids.json');
      const made = await floor(site, 'import-users', { rows: Array.from({ length: size }, (_, i) => row('f', i)) }, ids);
      expectDone('wp_insert_user', made.done, size);
      const deleted = await floor(site, 'undo-import-users', { ids: JSON.parse(await readFile(ids, 'utf8')) });
      expectDone('wp_delete_user', deleted.done, size);
      rows.push({ job: 'import-users', size: `${n(size)} accounts`, tool: imported.side, floor: made, load: loadavg()[0] ?? 0 });
      rows.push({ job: 'undo of import-users', size: `${n(size)} accounts`, tool: undone.side, floor: deleted, load: loadavg()[0] ?? 0 });
    }
    return rows;
  },

  async 'set-users-role'(site, creds, sizes) {
    const ids = await fixtures<{ a: number[]; b: number[] }>(site, 'set-users-role', sizes.roles);
    const context = await toolContext(creds);
    const tool = await ours(site, context, () => callTool(context, 'set-users-role', { user_ids: ids.a, to_role: 'author' }) as Promise<{ counts?: { changed?: number } }>);
    expectDone('set-users-role', tool.value.counts?.changed ?? 0, ids.a.length);
    const wp = await floor(site, 'set-users-role', { ids: ids.b, role: 'author' });
    return [{ job: 'set-users-role', size: `${n(ids.a.length)} accounts`, tool: tool.side, floor: wp, load: loadavg()[0] ?? 0 }];
  },

  async 'prune-terms'(site, creds, sizes) {
    const ids = await fixtures<{ a: number[]; b: number[] }>(site, 'prune-terms', sizes.prune);
    const context = await toolContext(creds);
    const tool = await ours(site, context, () => callTool(context, 'prune-terms', { taxonomy: 'post_tag', search: 'Floor Prune A' }) as Promise<{ deleted: number }>);
    expectDone('prune-terms', tool.value.deleted, ids.a.length);
    const wp = await floor(site, 'prune-terms', { ids: ids.b });
    return [{ job: 'prune-terms', size: `${n(ids.a.length)} unused tags`, tool: tool.side, floor: wp, load: loadavg()[0] ?? 0 }];
  },

  async 'migrate-terms'(site, creds, sizes) {
    const { cats, posts } = sizes.migrate;
    const ids = await fixtures<{ a: number[]; b: number[]; posts: number }>(site, 'migrate-terms', posts, { CMS_FLOOR_CATS: String(cats) });
    const context = await toolContext(creds);
    const params = { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: ids.a };
    const tool = await ours(site, context, () => callTool(context, 'migrate-terms', params) as Promise<{ posts_changed: number }>);
    expectDone('migrate-terms', tool.value.posts_changed, ids.posts);
    const wp = await floor(site, 'migrate-terms', { ids: ids.b });
    return [{ job: 'migrate-terms', size: `${cats} categories × ${n(posts)} posts`, tool: tool.side, floor: wp, load: loadavg()[0] ?? 0 }];
  },

  async 'find-duplicate-terms'(site, creds, sizes) {
    const seeded = await fixtures<{ tags: number; groups: number }>(site, 'find-duplicate-terms', sizes.duplicates);
    const first = await toolContext(creds);
    const page = await ours(site, first, () => callTool(first, 'find-duplicate-terms', { taxonomy: 'post_tag' }));
    const context = await toolContext(creds);
    const tool = await ours(site, context, () => walk(context, 'find-duplicate-terms', { taxonomy: 'post_tag' }));
    const groups = tool.value.reduce((sum, p) => sum + p.items.length, 0);
    const wp = await floor(site, 'find-duplicate-terms', {});
    expectDone('find-duplicate-terms (groups, tool against floor)', groups, wp.done);
    const note = `${tool.value.length} page${tool.value.length === 1 ? '' : 's'}, ${n(groups)} groups; the first page alone ${Math.round(page.side.ms)} ms, ${page.side.requests} requests`;
    return [{ job: 'find-duplicate-terms', size: `${n(seeded.tags)} tags, all pages`, tool: tool.side, floor: wp, load: loadavg()[0] ?? 0, note }];
  },

  async 'list-users'(site, creds, sizes) {
    await fixtures(site, 'list-users', sizes.users);
    const context = await toolContext(creds);
    const tool = await ours(site, context, () => walk(context, 'list-users', {}));
    const listed = tool.value.reduce((sum, p) => sum + p.items.length, 0);
    const wp = await floor(site, 'list-users', {});
    expectDone('list-users (accounts, tool against floor)', listed, wp.done);
    return [{ job: 'list-users', size: `${n(listed)} accounts, all pages`, tool: tool.side, floor: wp, load: loadavg()[0] ?? 0, note: `${tool.value.length} page${tool.value.length === 1 ? '' : 's'}` }];
  },
};
