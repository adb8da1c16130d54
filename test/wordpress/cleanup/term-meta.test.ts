import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { call, callOk, callOkIn, testSite, unique, wp } from '../../helpers/site.js';
import { installTermMeta, removeTermMeta } from '../../reliability/term-meta-fixture.js';
import { wpPhp } from '../users/helpers.js';

/**
 * Term fields (#51): create-term, update-term and the category tools write registered term meta
 * (the sandbox's `seo_title` string and `seo_noindex` boolean on categories, the test fixture's
 * `color` string and `rank` integer), read back from the database and REST; a key not
 * registered for REST is refused, naming the writable ones, and nothing is written.
 */
beforeAll(() => installTermMeta());
afterAll(() => removeTermMeta());

/** The term's meta rows as WordPress stores them. */
const rows = async (id: number) =>
  JSON.parse(await wpPhp(`echo json_encode((object) array_map(fn ($v) => $v[0], get_term_meta(${id}) ?: []));`)) as Record<string, string>;
const restMeta = async (id: number) =>
  (await wp().get<{ meta: Record<string, unknown> }>(`/wp/v2/categories/${id}`, { context: 'edit', _fields: 'meta' })).meta;
const journalled = () => createContext(testSite(), { journal: memoryJournal() });

describe('term meta', () => {
  it('create-category writes string, boolean and integer meta; REST and the database agree', async () => {
    const made = await callOk('create-category', {
      name: unique('SEO'),
      meta: [
        `seo_title=Best news`,
        `seo_noindex=true`,
        `rank=7`,
      ],
    });
    expect(made.meta).toEqual({ seo_title: 'Best news', seo_noindex: true, rank: 7 });
    expect(await restMeta(made.id)).toMatchObject({ seo_title: 'Best news', seo_noindex: true, rank: 7, color: '' });
    expect(await rows(made.id)).toEqual({ seo_title: 'Best news', seo_noindex: '1', rank: '7' });
  });

  it('update-term changes a meta value; undo puts the old one back and removes a row the term did not have', async () => {
    const made = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('News'), meta: { seo_title: 'Old' } });
    const context = journalled();
    await callOkIn(context, 'update-term', {
      taxonomy: 'category',
      id: made.id,
      meta: [
        `seo_title=New title`,
        `color=red`,
      ],
    });
    expect(await rows(made.id)).toEqual({ seo_title: 'New title', color: 'red' });
    const entry = (await context.journal!.entries()).at(-1)!;
    expect(entry.summary).toContain("meta seo_title 'Old' -> 'New title'");
    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    expect(await rows(made.id)).toEqual({ seo_title: 'Old' });
  });

  it('a key not registered for REST is refused, naming the writable keys; nothing is written', async () => {
    const made = await wp().post<{ id: number; name: string }>('/wp/v2/categories', { name: unique('Private') });
    for (const key of ['_seo_internal', 'yoast_wpseo_title']) {
      const outcome = await call('update-category', { id: made.id, name: `${made.name} x`, meta: [`${key}=x`] });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code).toBe('meta_not_registered');
      expect(outcome.error.message).toContain(key);
      expect(outcome.error.message).toContain('seo_title (string)');
      expect(outcome.error.message).toContain('seo_noindex (boolean)');
      expect(outcome.error.message).not.toContain('_seo_internal (');
    }
    // A text without key= says how to write it; nothing is written either.
    const bare = await call('update-category', { id: made.id, name: `${made.name} x`, meta: ['seo_title'] });
    expect(bare.ok).toBe(false);
    if (!bare.ok) expect(bare.error).toMatchObject({ code: 'invalid_params', hint: expect.stringContaining('key=value') });
    expect(await rows(made.id)).toEqual({});
    const now = await wp().get<{ name: string }>(`/wp/v2/categories/${made.id}`, { _fields: 'name' });
    expect(now.name).toBe(made.name);
  });

  it('list-terms with full shows the meta; without full it does not', async () => {
    const name = unique('Listed');
    const made = await wp().post<{ id: number }>('/wp/v2/categories', { name, meta: { seo_title: 'Shown' } });
    const full = await callOk('list-terms', { taxonomy: 'category', search: name, full: true });
    expect(full.items).toEqual([expect.objectContaining({ id: made.id, meta: expect.objectContaining({ seo_title: 'Shown' }) })]);
    const concise = await callOk('list-terms', { taxonomy: 'category', search: name });
    expect(concise.items[0].meta).toBeUndefined();
  });

  it('merge-terms carries meta the target has none of, names what it drops; undo takes it back', async () => {
    const source = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Src'), meta: { color: 'red', rank: 3 } });
    const target = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Tgt'), meta: { color: 'blue' } });
    const context = journalled();
    const result = await callOkIn(context, 'merge-terms', { taxonomy: 'category', source_ids: [source.id], target_id: target.id, delete_sources: true });
    expect(result.meta_carried).toEqual(['rank']);
    expect(result.meta_dropped).toEqual([`color "red" of category ${source.id}`]);
    expect(await rows(target.id)).toEqual({ color: 'blue', rank: '3' });
    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    expect(await rows(target.id)).toEqual({ color: 'blue' });
  });
});
