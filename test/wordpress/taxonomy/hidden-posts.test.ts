import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { installHiddenObjects, removeHiddenObjects } from '../../reliability/hidden-posts-fixture.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { callIn, callOkIn, testSite, unique, withoutCompanion, wp } from '../../helpers/site.js';
import { restAs } from '../users/browser.js';
import { makeAppPassword, makeUser, wpPhp } from '../users/helpers.js';

/**
 * Issue #34, finding 2: posts in a registered custom status (`archived`) and posts of a type
 * REST does not show (`ledger`, show_in_rest false) kept only the deleted source of a merge, and
 * delete-term's in-use count left them out. A test-only mu-plugin registers both; the posts are
 * made and read back through PHP (REST cannot see them), on both paths: with the companion
 * plugin every object counts and moves; without it, posts REST cannot show refuse the merge or
 * delete by name, and custom statuses are read through REST by naming them.
 */
type Spec = { type?: 'post' | 'ledger'; status?: string; taxonomy?: string; terms: number[] };
const made: number[] = [];

/** Posts written by PHP (wp_insert_post, wp_set_object_terms), as a plugin would. */
async function makeObjects(specs: Spec[]): Promise<number[]> {
  const rows = specs.map((s) => [s.type ?? 'post', s.status ?? 'publish', s.taxonomy ?? 'category', s.terms]);
  const ids = JSON.parse(
    await wpPhp(`$ids = []; foreach (json_decode('${JSON.stringify(rows)}', true) as [$type, $status, $tax, $terms]) {
      $id = wp_insert_post(['post_title' => 'hidden ' . $type, 'post_type' => $type, 'post_status' => $status, 'post_author' => 1], true);
      wp_set_object_terms($id, $terms, $tax); $ids[] = $id; } echo json_encode($ids);`),
  ) as number[];
  made.push(...ids);
  return ids;
}

/** Each post's term names in `taxonomy`, read by PHP from a fresh process (no cache). */
async function termNames(ids: number[], taxonomy = 'category'): Promise<string[][]> {
  return JSON.parse(
    await wpPhp(`echo json_encode(array_map(fn ($id) => wp_get_object_terms($id, '${taxonomy}', ['fields' => 'names']), [${ids.join(',')}]));`),
  );
}
const termExists = async (id: number) => (await wpPhp(`echo get_term(${id}) instanceof WP_Term ? 'yes' : 'no';`)).trim() === 'yes';

async function term(route: string, prefix: string) {
  const name = unique(prefix);
  return { id: (await wp().post<{ id: number }>(route, { name })).id, name };
}
function journalled(restOnly = false) {
  const journal = memoryJournal();
  const context = createContext(testSite(), { journal });
  return { context: restOnly ? withoutCompanion(context) : context, journal };
}

beforeAll(async () => {
  await installHiddenObjects();
});
afterAll(async () => {
  if (made.length) await wpPhp(`foreach ([${made.join(',')}] as $id) { wp_delete_post($id, true); }`);
  await removeHiddenObjects();
});

describe('with the companion plugin: every post type and status', () => {
  it('merge-terms with delete_sources moves archived and ledger posts too; undo gives every one its source back', async () => {
    const [source, target] = [await term('/wp/v2/categories', 'Src'), await term('/wp/v2/categories', 'Dst')];
    const ids = await makeObjects([
      { terms: [source.id] },
      { status: 'draft', terms: [source.id] },
      { status: 'archived', terms: [source.id] },
      { status: 'archived', terms: [source.id] },
      { type: 'ledger', terms: [source.id] },
      { type: 'ledger', terms: [source.id] },
      { type: 'ledger', status: 'draft', terms: [source.id] },
    ]);
    const { context, journal } = journalled();
    const result = await callOkIn(context, 'merge-terms', {
      taxonomy: 'category',
      source_ids: [source.id],
      target_id: target.id,
      delete_sources: true,
    });
    expect(result).toMatchObject({ posts_moved: 7, posts_failed: [], sources_deleted: [source.id] });
    expect(await termNames(ids)).toEqual(ids.map(() => [target.name]));
    expect(await termExists(source.id)).toBe(false);

    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(await termNames(ids)).toEqual(ids.map(() => [source.name]));
  });

  it('delete-term counts every object holding the term, and force strips it from all of them', async () => {
    const doomed = await term('/wp/v2/tags', 'Doomed');
    const ids = await makeObjects([
      { taxonomy: 'post_tag', terms: [doomed.id] },
      { taxonomy: 'post_tag', status: 'archived', terms: [doomed.id] },
      { taxonomy: 'post_tag', type: 'ledger', status: 'draft', terms: [doomed.id] },
    ]);
    const { context } = journalled();
    const refused = await callIn(context, 'delete-term', { taxonomy: 'post_tag', id: doomed.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'term_in_use', details: { posts: 3 } } });
    expect(await termNames(ids, 'post_tag')).toEqual(ids.map(() => [doomed.name]));
    const done = await callOkIn(context, 'delete-term', { taxonomy: 'post_tag', id: doomed.id, force: true });
    expect(done).toMatchObject({ posts_affected: 3 });
    expect(await termNames(ids, 'post_tag')).toEqual([[], [], []]);
  });
  it('the read route shows which posts hold a term only to an account that may manage its terms', async () => {
    const held = await term('/wp/v2/categories', 'Held');
    const [draft] = await makeObjects([{ status: 'draft', terms: [held.id] }]);
    const route = `/cms-admin/v1/post-terms?taxonomy=category&term_ids=${held.id}`;
    const author = await makeUser({ prefix: 'reader', roles: ['author'] });
    const who = { username: author.username, appPassword: await makeAppPassword(author.id) };
    expect((await restAs(who, 'GET', route)).status).toBe(403);
    // Another's draft by id: left out, as core's posts controller leaves it out for an author.
    expect((await restAs(who, 'GET', `/cms-admin/v1/post-terms?taxonomy=category&post_ids=${draft}`)).body).toEqual([]);
    expect((await wp().get<Array<{ id: number; status: string }>>(route)).map((p) => [p.id, p.status])).toEqual([[draft, 'draft']]);
  });
});

describe('without the companion plugin', () => {
  it('a merge deleting sources that posts REST cannot show hold is refused by name; nothing changes', async () => {
    const [source, target] = [await term('/wp/v2/categories', 'Src'), await term('/wp/v2/categories', 'Dst')];
    const ids = await makeObjects([
      { terms: [source.id] },
      { status: 'archived', terms: [source.id] },
      ...[1, 2, 3].map(() => ({ type: 'ledger' as const, terms: [source.id] })),
    ]);
    const { context } = journalled(true);
    const params = { taxonomy: 'category', source_ids: [source.id], target_id: target.id, delete_sources: true };
    for (const dry_run of [true, false]) {
      const outcome = await callIn(context, 'merge-terms', { ...params, dry_run });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'objects_not_visible' } });
      const message = (outcome as { error: { message: string } }).error.message;
      expect(message).toContain(`3 object(s) this account cannot see through REST hold category ${source.id}`);
      expect(message).toContain('ledger');
    }
    expect(await termNames(ids)).toEqual(ids.map(() => [source.name]));
    expect(await termExists(source.id)).toBe(true);
  });

  it('delete-term: posts of a hidden type refuse it unless forced, drafts WordPress does not count included', async () => {
    const doomed = await term('/wp/v2/categories', 'Doomed');
    const ids = await makeObjects([{ terms: [doomed.id] }, { type: 'ledger', status: 'draft', terms: [doomed.id] }]);
    const { context } = journalled(true);
    const refused = await callIn(context, 'delete-term', { taxonomy: 'category', id: doomed.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'objects_not_visible' } });
    expect(await termNames(ids)).toEqual(ids.map(() => [doomed.name]));
    await callOkIn(context, 'delete-term', { taxonomy: 'category', id: doomed.id, force: true });
    expect(await termExists(doomed.id)).toBe(false);
  });

  it('archived posts are seen through REST by their status: a genre merge moves them and undo restores them', async () => {
    const [source, target] = [await term('/wp/v2/genres', 'Src'), await term('/wp/v2/genres', 'Dst')];
    const specs = ['publish', 'archived', 'archived'].map((status) => ({ status, taxonomy: 'genre', terms: [source.id] }));
    const ids = await makeObjects(specs);
    const { context, journal } = journalled(true);
    const result = await callOkIn(context, 'merge-terms', {
      taxonomy: 'genre',
      source_ids: [source.id],
      target_id: target.id,
      delete_sources: true,
    });
    expect(result).toMatchObject({ posts_moved: 3, posts_failed: [], sources_deleted: [source.id] });
    expect(await termNames(ids, 'genre')).toEqual(ids.map(() => [target.name]));
    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(await termNames(ids, 'genre')).toEqual(ids.map(() => [source.name]));
  });
});
