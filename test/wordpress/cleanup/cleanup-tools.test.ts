import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { call, callIn, callOk, callOkIn, restOnlyContext, testSite, unique, wp } from '../../helpers/site.js';
import { restoreSeeded } from '../../evals/helpers.js';
import { wpPhp } from '../users/helpers.js';
import { dbSnapshot, type Mess, seedMess } from './mess.js';

/** recount-terms, set-terms-parent and find-duplicate-terms (#51), read back from the database and REST. */
let mess: Mess;
beforeAll(async () => {
  mess = await seedMess({ used: 30, unused: 5, draft: 10 });
}, 120_000);
afterAll(() => restoreSeeded(), 120_000);

const journalled = () => createContext(testSite(), { journal: memoryJournal() });

describe('recount-terms', () => {
  it('puts back counts corrupted in the database and says which changed from what to what', async () => {
    const [a, b] = mess.used as [number, number];
    const c = mess.draft[0] as number;
    await wpPhp(`global $wpdb; $wpdb->query("UPDATE $wpdb->term_taxonomy SET count = 99 WHERE term_id IN (${a}, ${b}, ${c})"); clean_term_cache([${a}, ${b}, ${c}], 'post_tag');`);
    const result = await callOk('recount-terms', { taxonomy: 'post_tag', term_ids: [a, b, c, mess.used[2]] });
    expect(result.checked).toBe(4);
    expect(result.changed.map((x: { id: number; from: number; to: number }) => [x.id, x.from, x.to])).toEqual([
      [a, 99, 1],
      [b, 99, 1],
      [c, 99, 0],
    ]);
    const db = await dbSnapshot(mess.prefix);
    const rest = await wp().all<{ id: number; count: number }>('/wp/v2/tags', { include: [a, b, c], hide_empty: false, _fields: 'id,count' });
    expect(Object.fromEntries(rest.map((t) => [t.id, t.count]))).toEqual({ [a]: 1, [b]: 1, [c]: 0 });
    expect(db[`${mess.prefix.toLowerCase()}-used-0`]?.count).toBe(1);
    const again = await callOk('recount-terms', { taxonomy: 'post_tag', term_ids: [a, b, c] });
    expect(again.changed).toEqual([]);
  });
});

describe('set-terms-parent', () => {
  const make = (name: string, parent = 0) =>
    wp().post<{ id: number }>('/wp/v2/categories', { name: unique(name), parent }).then((t) => t.id);

  it('moves terms under one parent in one journal entry; undo puts each back', async () => {
    const top = await make('Top');
    const old = await make('Old parent');
    const kids = [await make('Kid'), await make('Kid', old), await make('Kid')];
    const context = journalled();
    const result = await callOkIn(context, 'set-terms-parent', { taxonomy: 'category', term_ids: kids, parent: top });
    expect(result.moved.sort()).toEqual([...kids].sort());
    const read = () =>
      wp().all<{ id: number; parent: number }>('/wp/v2/categories', { include: kids, hide_empty: false, _fields: 'id,parent', orderby: 'include' });
    expect((await read()).map((t) => t.parent)).toEqual([top, top, top]);
    expect((await context.journal!.entries()).map((e) => e.tool)).toEqual(['set-terms-parent']);
    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    expect((await read()).map((t) => t.parent)).toEqual([0, old, 0]);
  });

  it('refuses a loop (the parent, or a term above it) and changes nothing', async () => {
    const a = await make('A');
    const b = await make('B', a);
    const c = await make('C', b);
    for (const [ids, parent] of [[[a], c], [[c], c]] as const) {
      const outcome = await call('set-terms-parent', { taxonomy: 'category', term_ids: ids, parent });
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.code).toBe('parent_cycle');
    }
    const now = await wp().get<{ parent: number }>(`/wp/v2/categories/${a}`, { _fields: 'parent' });
    expect(now.parent).toBe(0);
  });

  it('a flat taxonomy is refused', async () => {
    const outcome = await call('set-terms-parent', { taxonomy: 'post_tag', term_ids: [mess.used[0]], parent: 0 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('not_hierarchical');
  });
});

describe('find-duplicate-terms', () => {
  it('groups the spellings, the most used first as the target, with post counts of any status', async () => {
    const groups: Array<{ target_id: number; terms: Array<{ id: number; posts: number }> }> = [];
    let cursor: string | undefined;
    do {
      const page = await callOk('find-duplicate-terms', { taxonomy: 'post_tag', limit: 20, ...(cursor ? { cursor } : {}) });
      groups.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    for (const ids of mess.duplicates) {
      const group = groups.find((g) => g.terms.some((t) => t.id === ids[0]));
      expect(group?.terms.map((t) => t.id)).toEqual(ids);
      expect(group?.target_id).toBe(ids[0]);
      expect(group?.terms.map((t) => t.posts)).toEqual(ids.map((_, n) => ids.length - 1 - n));
    }
    // "used 1" and "used 10" differ by more than spelling: never one group.
    expect(groups.some((g) => g.terms.some((t) => t.id === mess.used[1]))).toBe(false);
  });

  it('without the companion plugin: the same groups, with WordPress published counts', async () => {
    const context = restOnlyContext();
    const groups: Array<{ target_id: number; terms: Array<{ id: number; posts: number }> }> = [];
    let cursor: string | undefined;
    do {
      const page = await callOkIn(context, 'find-duplicate-terms', { taxonomy: 'post_tag', limit: 50, ...(cursor ? { cursor } : {}) });
      groups.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    for (const ids of mess.duplicates) {
      const group = groups.find((g) => g.terms.some((t) => t.id === ids[0]));
      expect(group?.terms.map((t) => t.id)).toEqual(ids);
    }
  });
});

describe('prune-terms older_than', () => {
  it('keeps a term used by anything dated on or after the date', async () => {
    const name = unique('Old news');
    const id = Number(
      await wpPhp(
        `$t = wp_insert_term(${JSON.stringify(name)}, 'post_tag')['term_id']; $p = wp_insert_post(['post_title' => 'Old', 'post_status' => 'draft', 'post_date' => '2020-01-01 10:00:00', 'post_date_gmt' => '2020-01-01 10:00:00']); wp_set_object_terms($p, [$t], 'post_tag'); echo $t;`,
      ),
    );
    const plan = (older_than: string) => callOk('prune-terms', { taxonomy: 'post_tag', search: name, max_posts: 1, older_than, dry_run: true });
    expect((await plan('2021-01-01')).terms.map((t: { id: number }) => t.id)).toEqual([id]);
    expect((await plan('2019-06-01T00:00:00Z')).would_delete).toBe(0);
  });
});

describe('without the companion plugin', () => {
  it('prune-terms and recount-terms say they need it, and change nothing', async () => {
    for (const [tool, params] of [
      ['prune-terms', { taxonomy: 'post_tag', search: mess.prefix }],
      ['recount-terms', { taxonomy: 'post_tag', term_ids: [mess.unused[0]] }],
    ] as const) {
      const outcome = await callIn(restOnlyContext(), tool, params);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.code).toBe('companion_plugin_missing');
    }
    expect(await wp().get<{ id: number }>(`/wp/v2/tags/${mess.unused[0]}`, { _fields: 'id' })).toEqual({ id: mess.unused[0] });
  });
});
