import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { memoryJournal } from '../../../src/undo/journal.js';
import { undoChange } from '../../../src/undo/undo.js';
import { callOk, callOkIn, testSite, unique } from '../../helpers/site.js';
import { installTermMeta, removeTermMeta } from '../../reliability/term-meta-fixture.js';
import { wpPhp } from '../users/helpers.js';
import { dbSnapshot } from './mess.js';

/**
 * migrate-terms (#51): "turn the categories Tips and Guides into tags", on posts of several
 * statuses and a custom post type tags are not on; registered meta carried where the target
 * registers it and named where dropped; read back from the database; undo gives both back.
 */
beforeAll(() => installTermMeta());
afterAll(() => removeTermMeta());

interface Seeded {
  tips: number;
  guides: number;
  guidesTag: number;
  posts: Record<string, number>;
}

async function seed(prefix: string): Promise<Seeded> {
  const php = `
    $p = ${JSON.stringify(prefix)};
    $slug = strtolower(str_replace(' ', '-', $p));
    $tips = wp_insert_term("$p Tips", 'category', ['slug' => "$slug-tips"])['term_id'];
    update_term_meta($tips, 'color', 'green');
    update_term_meta($tips, 'seo_title', 'Tips for you');
    $guides = wp_insert_term("$p Guides", 'category', ['slug' => "$slug-guides"])['term_id'];
    $guidesTag = wp_insert_term("$p Guides", 'post_tag', ['slug' => "$slug-guides"])['term_id'];
    $posts = [];
    foreach (['publish' => [$tips], 'draft' => [$tips, $guides], 'pending' => [$tips, 1], 'private' => [$guides]] as $status => $cats) {
        $posts[$status] = wp_insert_post(['post_title' => "$p $status", 'post_status' => $status, 'post_category' => $cats]);
    }
    // A book: post tags are not on books, so it keeps its category.
    $posts['book'] = wp_insert_post(['post_title' => "$p book", 'post_status' => 'publish', 'post_type' => 'book']);
    wp_set_object_terms($posts['book'], [$guides], 'category');
    echo json_encode(compact('tips', 'guides', 'guidesTag', 'posts'));
  `;
  return JSON.parse(await wpPhp(php)) as Seeded;
}

/** Each post's categories and tags, by id or (across an undo, which recreates terms with new ids) by slug. */
const relations = async (ids: number[], fields: 'ids' | 'slugs' = 'ids') =>
  JSON.parse(
    await wpPhp(`echo json_encode(array_map(fn ($id) => ['category' => wp_get_object_terms($id, 'category', ['fields' => '${fields}', 'orderby' => 'term_id']), 'post_tag' => wp_get_object_terms($id, 'post_tag', ['fields' => '${fields}', 'orderby' => 'term_id'])], array_combine([${ids.join(',')}], [${ids.join(',')}])));`),
  ) as Record<string, { category: number[]; post_tag: number[] }>;

describe('migrate-terms', () => {
  it('turns Tips and Guides into tags on posts of every status; the book keeps Guides; undo gives the site back', async () => {
    const prefix = unique('Mig').replace(/\s+/g, '-');
    const s = await seed(prefix);
    const ids = Object.values(s.posts);
    const snapshot = async () => ({
      category: await dbSnapshot(prefix, 'category'),
      post_tag: await dbSnapshot(prefix, 'post_tag'),
      posts: Object.fromEntries(
        Object.entries(await relations(ids, 'slugs')).map(([id, r]) => [id, { category: r.category.sort(), post_tag: r.post_tag.sort() }]),
      ),
    });
    const before = await snapshot();
    const context = createContext(testSite(), { journal: memoryJournal() });
    const result = await callOkIn(context, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [s.tips, s.guides] });

    const tips = result.terms.find((t: { from_id: number }) => t.from_id === s.tips);
    const guides = result.terms.find((t: { from_id: number }) => t.from_id === s.guides);
    expect(tips).toMatchObject({ created: true, posts: 3, source_deleted: true });
    expect(tips.meta_dropped).toEqual(['seo_title (not registered on post_tag)']);
    expect(guides).toMatchObject({ created: false, to_id: s.guidesTag, source_deleted: false });
    expect(guides.kept_reason).toContain(String(s.posts.book));
    expect(result.posts_not_moved).toEqual([{ id: s.posts.book, type: 'book' }]);

    const now = await relations(ids);
    expect(now[s.posts.publish!]!.post_tag).toEqual([tips.to_id]);
    expect(now[s.posts.draft!]!.post_tag.sort()).toEqual([tips.to_id, s.guidesTag].sort());
    expect(now[s.posts.private!]!.post_tag).toEqual([s.guidesTag]);
    expect(now[s.posts.pending!]!.category).toEqual([1]);
    expect(now[s.posts.book!]!.category).toEqual([s.guides]);
    const tags = await dbSnapshot(prefix, 'post_tag');
    expect(tags[`${prefix.toLowerCase()}-tips`]?.meta).toEqual({ color: 'green' });
    expect((await dbSnapshot(prefix, 'category'))[`${prefix.toLowerCase()}-tips`]).toBeUndefined();

    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('the dry run names what it would create and match, and writes nothing', async () => {
    const prefix = unique('MigDry').replace(/\s+/g, '-');
    const s = await seed(prefix);
    const before = await dbSnapshot(prefix, 'category');
    const plan = await callOk('migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [s.tips, s.guides], dry_run: true });
    expect([...plan.terms].sort((a: { id: number }, b: { id: number }) => a.id - b.id)).toEqual([
      { id: s.tips, name: `${prefix} Tips`, creates: true },
      { id: s.guides, name: `${prefix} Guides`, matches: s.guidesTag },
    ].sort((a, b) => a.id - b.id));
    expect(plan.posts_to_change).toBe(4);
    expect(await dbSnapshot(prefix, 'category')).toEqual(before);
  });
});
