import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../../src/call/index.js';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { testSite } from '../helpers/site.js';
import { wpPhp } from '../wordpress/users/helpers.js';
import { relations, seedRace, siteState } from './bulk-terms-fixture.js';
import { companion, proxied, run, useFaultProxy } from './fault-setup.js';
import { meet } from './meet.js';
import { journaled } from './undo-engine.js';

useFaultProxy();

/**
 * Issue #59, finding 1 and "a bulk write changes only what still holds": a bulk term write's
 * first request is held at the proxy while another writer changes what it planned on; the write
 * must leave that alone and say so, and its undo must give back exactly what it did. The site is
 * read back from its database (bulk-terms-fixture.ts).
 */
const FIRST_POST = { method: 'POST', limit: 1 } as const;
const ok = (outcome: ToolOutcome) => {
  if (!outcome.ok) throw new Error(`expected ok: ${JSON.stringify(outcome.error)}`);
  return outcome.result as any;
};
const sorted = (list: string[]) => [...list].sort();

const PATHS = [
  { path: 'companion plugin', context: () => companion() },
  { path: 'core API (/batch/v1)', context: () => proxied() },
] as const;

describe.each(PATHS)('migrate-terms meets another writer ($path)', ({ context }) => {
  it('three posts hold C; while the first batch is held assign-categories-to-posts gives C to a fourth: the migration leaves that post and C, says so, and undo is exact', async () => {
    const s = await seedRace('Mig race');
    const before = await siteState(s);
    const journal = memoryJournal();
    const migrating = journaled(journal, context());
    const [migrate, assign] = await meet(
      FIRST_POST,
      () => run(migrating, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [s.c] }),
      () => run(createContext(testSite()), 'assign-categories-to-posts', { post_ids: [s.posts[3]], category_ids: [s.c] }),
    );
    expect(ok(assign).updated).toBeDefined();
    await expectMigratedAroundFourth(s, ok(migrate));
    await expectUndoneButFourth(s, before, migrating, journal);
  });
});

describe('migrate-terms meets a plain PHP writer (companion plugin)', () => {
  it('wp_set_object_terms gives C to a fourth post while the first batch is held: the same', async () => {
    const s = await seedRace('Mig php');
    const before = await siteState(s);
    const journal = memoryJournal();
    const migrating = journaled(journal, companion());
    const [migrate] = await meet(
      FIRST_POST,
      () => run(migrating, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [s.c] }),
      async () => {
        await wpPhp(`wp_set_object_terms(${s.posts[3]}, [${s.c}], 'category', true);`);
        return { ok: true, result: null };
      },
    );
    await expectMigratedAroundFourth(s, ok(migrate));
    await expectUndoneButFourth(s, before, migrating, journal);
  });
});

/** Posts 1–3 have the tag and not C (post 3 filed under the default category); post 4 keeps C, no tag; C stays, named. */
async function expectMigratedAroundFourth(s: Awaited<ReturnType<typeof seedRace>>, answer: any): Promise<void> {
  const slug = s.prefix.toLowerCase();
  const now = await relations(s.posts);
  expect(now[s.posts[3]]).toEqual({ category: sorted([`${slug}-c`, `${slug}-k`]), post_tag: [] });
  for (const id of s.posts.slice(0, 3)) {
    expect(now[id]?.post_tag, `post ${id}`).toEqual([`${slug}-c`]);
    expect(now[id]?.category, `post ${id}`).not.toContain(`${slug}-c`);
  }
  expect(now[s.posts[2]]?.category).toEqual(['uncategorized']);
  const c = (await siteState(s)).category[`${slug}-c`];
  expect(c?.objects).toEqual([s.posts[3]]);
  // The answer says what it kept and why: the fourth post holds it.
  expect(answer.terms).toEqual([expect.objectContaining({ from_id: s.c, source_deleted: false })]);
  expect(answer.terms[0].kept_reason).toContain(String(s.posts[3]));
}

/** Undo gives the three posts C back and takes the tag away; the fourth post keeps what the other writer gave it. */
async function expectUndoneButFourth(
  s: Awaited<ReturnType<typeof seedRace>>,
  before: Awaited<ReturnType<typeof siteState>>,
  context: ReturnType<typeof companion>,
  journal: ReturnType<typeof memoryJournal>,
): Promise<void> {
  const report = await undoChange(context, journal);
  expect(report.conflicts).toEqual([]);
  const slug = s.prefix.toLowerCase();
  const expected = structuredClone(before);
  const c = expected.category[`${slug}-c`] as { objects: number[]; count: number };
  c.objects = [...c.objects, s.posts[3]].sort((a, b) => a - b);
  c.count += 1; // the fourth post is published
  (expected.posts[s.posts[3]] as { category: string[] }).category = sorted([`${slug}-c`, `${slug}-k`]);
  expect(await siteState(s)).toEqual(expected);
}

describe('prune-terms and set-terms-parent meet another writer (companion plugin)', () => {
  it('prune-terms max_posts 1: a pruned tag moved to another post meanwhile is kept and named; undo is exact', async () => {
    const prefix = `prune-race-${Date.now().toString(36)}`;
    const seeded = JSON.parse(
      await wpPhp(`$t1 = wp_insert_term('${prefix} one', 'post_tag')['term_id']; $t2 = wp_insert_term('${prefix} two', 'post_tag')['term_id'];
        $a = wp_insert_post(['post_title' => '${prefix} a', 'post_status' => 'publish', 'tags_input' => [(int) $t1]]);
        $b = wp_insert_post(['post_title' => '${prefix} b', 'post_status' => 'publish']);
        wp_set_object_terms($a, [(int) $t1], 'post_tag'); echo json_encode(compact('t1', 't2', 'a', 'b'));`),
    ) as { t1: number; t2: number; a: number; b: number };
    const site = { prefix, posts: [seeded.a, seeded.b] };
    const before = await siteState(site);
    const journal = memoryJournal();
    const pruning = journaled(journal, companion());
    const [prune] = await meet(
      FIRST_POST,
      () => run(pruning, 'prune-terms', { taxonomy: 'post_tag', search: prefix, max_posts: 1 }),
      async () => {
        // Another writer moves tag one from post a to post b: still used by one object, but not the one planned.
        await wpPhp(`wp_remove_object_terms(${seeded.a}, [${seeded.t1}], 'post_tag'); wp_set_object_terms(${seeded.b}, [${seeded.t1}], 'post_tag', true);`);
        return { ok: true, result: null };
      },
    );
    const answer = ok(prune);
    expect(answer.deleted).toBe(1);
    expect(answer.kept).toEqual([{ id: seeded.t1, reason: expect.stringContaining(String(seeded.b)) }]);
    expect((await siteState(site)).post_tag[`${prefix}-one`]?.objects).toEqual([seeded.b]);
    expect(await relations([seeded.b])).toEqual({ [seeded.b]: { category: ['uncategorized'], post_tag: [`${prefix}-one`] } });
    expect((await undoChange(pruning, journal)).conflicts).toEqual([]);
    const expected = structuredClone(before);
    const one = expected.post_tag[`${prefix}-one`] as { objects: number[] };
    one.objects = [seeded.b];
    expected.posts = { [seeded.a]: { category: ['uncategorized'], post_tag: [] }, [seeded.b]: { category: ['uncategorized'], post_tag: [`${prefix}-one`] } };
    expect(await siteState(site)).toEqual(expected);
  });

  it('set-terms-parent: a term another writer moved meanwhile is skipped and named, not moved back; undo is exact', async () => {
    const prefix = `parent-race-${Date.now().toString(36)}`;
    const t = JSON.parse(
      await wpPhp(`$ins = fn ($n, $parent = 0) => wp_insert_term("${prefix} $n", 'category', ['parent' => $parent])['term_id'];
        $p = $ins('p'); $q = $ins('q'); $x = $ins('x'); $y = $ins('y'); echo json_encode(compact('p', 'q', 'x', 'y'));`),
    ) as { p: number; q: number; x: number; y: number };
    const site = { prefix, posts: [] };
    const journal = memoryJournal();
    const moving = journaled(journal, companion());
    const [moved] = await meet(
      FIRST_POST,
      () => run(moving, 'set-terms-parent', { taxonomy: 'category', term_ids: [t.x, t.y], parent: t.p }),
      () => run(createContext(testSite()), 'update-category', { id: t.x, parent: t.q }),
    );
    const answer = ok(moved);
    expect(answer.moved).toEqual([t.y]);
    expect(answer.skipped).toEqual([{ id: t.x, reason: expect.stringContaining('changed since') }]);
    const after = (await siteState(site)).category;
    expect(after[`${prefix}-x`]?.parent).toBe(`${prefix}-q`);
    expect(after[`${prefix}-y`]?.parent).toBe(`${prefix}-p`);
    expect((await undoChange(moving, journal)).conflicts).toEqual([]);
    const undone = (await siteState(site)).category;
    expect(undone[`${prefix}-x`]?.parent).toBe(`${prefix}-q`);
    expect(undone[`${prefix}-y`]?.parent).toBe(0);
  });
});
