import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../../src/call/index.js';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoListed } from '../../src/undo/undo.js';
import { restoreSeeded } from '../evals/helpers.js';
import { printBudget, termsBulkRuns } from '../helpers/budget.js';
import { type BulkAnswer, expandIds, perPost } from '../helpers/listing.js';
import { callIn, testSite, wp } from '../helpers/site.js';
import { companion, proxy, useFaultProxy } from './fault-setup.js';
import { ALL_STATUSES, readTerms, snapshotDiff, type UndoSnapshot, undoSnapshot } from './undo-snapshot.js';
import { bulkOpSequence, resolveBulkOp, ROUTES, TERM_BULK, type Taxonomy } from './undo-bulk-writes.js';
import { journaled } from './undo-engine.js';
import type { World } from './undo-writes.js';

useFaultProxy();
afterAll(() => restoreSeeded());

/**
 * Issue #59's undo property, term side: a seeded random sequence of taxonomy writes among which
 * migrate-terms, set-terms-parent and prune-terms run several times, each with its first write
 * held at the fault proxy while a second writer (no journal) gives one of the terms it planned on
 * to posts that did not have it, so the race really happens. The property: every ok answer of a
 * bulk tool describes the site; the second writer's changes survive the bulk write and the undo;
 * undoing every change, newest first, gives back the first snapshot except what the second writer
 * did — read from WordPress directly (undo-snapshot.ts).
 */
const RUNS = termsBulkRuns();
printBudget(`undo property, bulk term tools: ${RUNS.length} seed(s): ${RUNS.join(', ')} (replay one with TERMS_BULK_SEEDS=<seed>)`);

/** Each bulk tool this many times a seed, with this many other writes drawn besides the taxonomy writes. */
const BULK = 2;
const EXTRA = 3;

type Triple = { post: string; taxonomy: Taxonomy; term: number };
const POSTS_FIELD: Record<Taxonomy, string> = { category: 'categories', post_tag: 'tags', genre: 'genres', product_cat: 'product-categories' };

describe('undo property with the bulk term tools and a second writer (#59)', () => {
  it('every ok bulk answer describes the site, the second writer’s changes survive, and undo of all gives back the first snapshot but for them', { timeout: 1_800_000 }, async () => {
    for (const seed of RUNS) {
      try {
        await propertyRun(seed);
      } catch (err) {
        if (err instanceof Error) err.message = `seed ${seed} (replay: TERMS_BULK_SEEDS=${seed}): ${err.message}`;
        throw err;
      }
    }
  });
});

async function propertyRun(seed: number): Promise<void> {
  await restoreSeeded();
  const client = wp();
  const { default_category } = await client.get<{ default_category: number }>('/wp/v2/settings', { _fields: 'default_category' });
  const ids = (type: string) =>
    client.all<{ id: number }>(`/wp/v2/${type}`, { status: ALL_STATUSES, context: 'edit', _fields: 'id', orderby: 'id' }).then((l) => l.map((p) => p.id));
  const world: World = { me: (await client.connect()).id, defaultCategory: default_category, posts: await ids('posts'), products: await ids('products'), withAppPasswords: [], tag: `b${seed}` };
  // The seeded terms by id: the second writer gives only these (they come back, by slug, after the undo).
  const slugs = new Map<string, Map<number, string>>();
  for (const tax of Object.keys(ROUTES) as Taxonomy[]) slugs.set(tax, new Map((await readTerms(ROUTES[tax])).map((t) => [t.id, t.slug])));
  const before = await undoSnapshot();
  const journal = memoryJournal();
  const direct = journaled(journal);
  const [ops] = fc.sample(bulkOpSequence(BULK, EXTRA), { seed, numRuns: 1 });
  const triples: Triple[] = [];
  let raced = 0;
  for (const [i, o] of (ops ?? []).entries()) {
    const call = await resolveBulkOp(o, i, world);
    if (!call) continue;
    const [tool, params] = call;
    if (!(TERM_BULK as readonly string[]).includes(tool)) {
      await callIn(direct, tool, params);
      continue;
    }
    const other = await secondWriterFor(tool, params, world, slugs);
    const { outcome, given } = await race(() => callIn(journaled(journal, companion()), tool, params), other);
    if (given.length) raced++;
    triples.push(...given);
    if (outcome.ok) await answerDescribesSite(tool, params, outcome.result as Record<string, any>);
    // The second writer's terms are still on its posts: the bulk write planned without them.
    for (const t of given) expect(await holds(t), `${tool} ${JSON.stringify(params)} took ${t.taxonomy} ${t.term} off ${t.post}`).toBe(true);
  }
  console.log(`undo property, bulk term tools, seed ${seed}: ${(await journal.entries()).length} changes, ${raced} bulk writes raced by a second writer (${triples.length} posts given a term)`);
  expect(raced, 'the second writer met a bulk write').toBeGreaterThan(0);
  const reports = await undoListed(direct, journal, (await journal.entries()).reverse());
  expect(reports.flatMap((r) => r.conflicts.map((c) => `${r.change_id}: ${c.item}: ${c.reason}`))).toEqual([]);
  expect(reports.filter((r) => r.incomplete)).toEqual([]);
  expect(snapshotDiff(withSecondWriter(before, triples, slugs), await undoSnapshot())).toEqual([]);
}

/** Runs the bulk call with its first write held; while it waits, the second writer writes. */
async function race(bulk: () => Promise<ToolOutcome>, other: () => Promise<Triple[]>) {
  proxy.clear().inject({ method: 'POST', limit: 1, fault: { kind: 'hold' } });
  const running = bulk();
  const held = await Promise.race([proxy.whenHeld().then(() => true), running.then(() => false)]);
  const given = held ? await other() : [];
  proxy.release();
  const outcome = await running;
  proxy.clear();
  return { outcome, given };
}

/** The second writer: a seeded term the bulk call planned on, given to two posts that do not have it. */
async function secondWriterFor(tool: string, params: Record<string, any>, world: World, slugs: Map<string, Map<number, string>>) {
  const taxonomy: Taxonomy = tool === 'migrate-terms' ? params.from_taxonomy : params.taxonomy;
  let candidates: number[] = params.term_ids ?? [];
  if (tool === 'prune-terms') {
    const plan = await callIn(createContext(testSite()), tool, { ...params, dry_run: true });
    candidates = plan.ok ? ((plan.result as { terms?: Array<{ id: number }> }).terms ?? []).map((t) => t.id) : [];
  }
  const term = candidates.find((id) => slugs.get(taxonomy)?.has(id));
  return async (): Promise<Triple[]> => {
    if (term === undefined) return [];
    const type = taxonomy === 'product_cat' ? 'products' : 'posts';
    const pool = (type === 'products' ? world.products : world.posts).filter((_, k) => (k + term) % 7 === 0).slice(0, 20);
    const now = await wp().get<Array<Record<string, any>>>(`/wp/v2/${type}`, { include: pool, status: ALL_STATUSES, context: 'edit', _fields: `id,${POSTS_FIELD[taxonomy]}`, per_page: 100 }).catch(() => []);
    const post_ids = now.filter((p) => !(p[POSTS_FIELD[taxonomy]] as number[]).includes(term)).slice(0, 2).map((p) => p.id as number);
    if (!post_ids.length) return [];
    const outcome = await callIn(createContext(testSite()), 'assign-terms-to-posts', { taxonomy, post_ids, term_ids: [term] });
    if (!outcome.ok) throw new Error(`the second writer failed: ${JSON.stringify(outcome.error)}`);
    const kind = type === 'products' ? 'product' : 'post';
    return perPost(outcome.result as BulkAnswer).updated.map((id) => ({ post: `${kind}:${id}`, taxonomy, term }));
  };
}

const route = (tax: Taxonomy) => `/${ROUTES[tax].rest_namespace ?? 'wp/v2'}/${ROUTES[tax].rest_base}`;
async function term(tax: Taxonomy, id: number): Promise<{ id: number; parent: number } | undefined> {
  const [found] = await wp().get<Array<{ id: number; parent: number }>>(route(tax), { include: [id], hide_empty: false, _fields: 'id,parent' });
  return found;
}

async function holds(t: Triple): Promise<boolean> {
  const [kind, id] = t.post.split(':');
  const path = `/wp/v2/${kind}s/${id}`;
  const post = await wp().get<Record<string, number[]>>(path, { context: 'edit', _fields: POSTS_FIELD[t.taxonomy] });
  return (post[POSTS_FIELD[t.taxonomy]] ?? []).includes(t.term);
}

/** An ok answer of a bulk term tool, against the site read back. */
async function answerDescribesSite(tool: string, params: Record<string, any>, result: Record<string, any>): Promise<void> {
  if (tool === 'migrate-terms')
    for (const t of result.terms as Array<{ from_id: number; to_id: number; source_deleted: boolean | 'unknown' }>) {
      if (t.source_deleted !== 'unknown') expect(Boolean(await term(params.from_taxonomy, t.from_id)), `source ${t.from_id} deleted: ${t.source_deleted}`).toBe(!t.source_deleted);
      expect(await term(params.to_taxonomy, t.to_id), `target ${t.to_id}`).toBeDefined();
    }
  if (tool === 'prune-terms') {
    for (const id of expandIds(result.deleted_ids ?? '')) expect(await term(params.taxonomy, id), `pruned ${id}`).toBeUndefined();
    for (const k of result.kept ?? []) expect(await term(params.taxonomy, k.id), `kept ${k.id}`).toBeDefined();
  }
  if (tool === 'set-terms-parent') {
    for (const id of result.moved as number[]) expect((await term(params.taxonomy, id))?.parent, `moved ${id}`).toBe(params.parent);
    for (const s of result.skipped ?? []) expect((await term(params.taxonomy, s.id))?.parent, `skipped ${s.id}`).not.toBe(params.parent);
  }
}

/** The first snapshot with the second writer's terms on its posts (by slug: recreated terms have new ids). */
function withSecondWriter(before: UndoSnapshot, triples: Triple[], slugs: Map<string, Map<number, string>>): UndoSnapshot {
  const out = structuredClone(before);
  for (const t of triples) {
    const post = out.posts[t.post];
    const slug = slugs.get(t.taxonomy)?.get(t.term);
    if (!post || !slug) continue;
    post[t.taxonomy] = [...new Set([...(post[t.taxonomy] ?? []), slug])].sort();
  }
  return out;
}
