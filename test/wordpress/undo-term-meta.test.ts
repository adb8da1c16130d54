import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { installTermMeta, removeTermMeta } from '../reliability/term-meta-fixture.js';
import { makePosts, readPosts } from './taxonomy/fixtures.js';
import { wpPhp } from './users/helpers.js';

/**
 * Issue #34.3: undo of a deleted or merged-away term gave it back without its registered term
 * meta (`color` was `c-scifi`, came back empty). Meta registered with show_in_rest (REST's
 * `meta`) is now journalled with the term and written when it is recreated.
 */

beforeAll(() => installTermMeta());
afterAll(() => removeTermMeta());

/** What the sandbox registers on categories (scripts/sandbox/sandbox-mu-plugin.php, #51), as REST shows it unset. */
const CATEGORY_META = { seo_title: '', seo_noindex: false };

type Term = { id: number; slug: string; name: string; meta: Record<string, unknown> };

const bySlug = async (route: string, slug: string) =>
  (await wp().get<Term[]>(route, { slug, hide_empty: false, context: 'edit', _fields: 'id,slug,name,meta' }))[0];

const journalled = () => createContext(testSite(), { journal: memoryJournal() });

describe('undo gives back registered term meta', () => {
  it('delete-category of a category with meta → undo recreates it with its meta and gives it back to its posts', async () => {
    const context = journalled();
    const made = await wp().post<Term>(
      '/wp/v2/categories',
      { name: unique('Sci-fi'), meta: { color: 'c-scifi', rank: 7 } },
      { context: 'edit' },
    );
    expect(made.meta).toEqual({ ...CATEGORY_META, color: 'c-scifi', rank: 7 });
    const posts = await makePosts([{ categories: [made.id] }, { categories: [made.id, 1] }]);
    await callOkIn(context, 'delete-category', { id: made.id, force: true });
    expect(await bySlug('/wp/v2/categories', made.slug)).toBeUndefined();

    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    const back = (await bySlug('/wp/v2/categories', made.slug))!;
    expect(back.name).toBe(made.name);
    expect(back.meta).toEqual({ ...CATEGORY_META, color: 'c-scifi', rank: 7 });
    const now = await readPosts(posts);
    expect(now.get(posts[0]!)?.categories).toEqual([back.id]);
    expect(now.get(posts[1]!)?.categories.sort((a, b) => a - b)).toEqual([1, back.id].sort((a, b) => a - b));
  });

  it('merge-terms with delete_sources (genre) → undo recreates the sources with their meta; the target keeps its own', async () => {
    const context = journalled();
    const make = (name: string, meta: Record<string, unknown>) =>
      wp().post<Term>('/wp/v2/genres', { name: unique(name), meta }, { context: 'edit' });
    const [a, b, target] = [
      await make('Space opera', { color: 'c-space', rank: 1 }),
      await make('Cyberpunk', { color: 'c-cyber', rank: 2 }),
      await make('Science fiction', { color: 'c-scifi', rank: 3 }),
    ];
    await callOkIn(context, 'merge-terms', {
      taxonomy: 'genre',
      source_ids: [a.id, b.id],
      target_id: target.id,
      delete_sources: true,
    });
    await undoChange(context, context.journal!);
    expect((await bySlug('/wp/v2/genres', a.slug))?.meta).toEqual({ color: 'c-space', rank: 1 });
    expect((await bySlug('/wp/v2/genres', b.slug))?.meta).toEqual({ color: 'c-cyber', rank: 2 });
    expect((await bySlug('/wp/v2/genres', target.slug))?.meta).toEqual({ color: 'c-scifi', rank: 3 });
  });
});

/**
 * Issue #47, finding 10: REST's `meta` shows every registered key, its default where the term
 * has no row, and the undo recreated a term with all of them (`rank=0`, `color=''`): rows it
 * never had. With the companion plugin (0.5.3, `cms_meta_keys`) the journal keeps only the keys
 * the term has, and the recreated term gets those and no others; read back from the database.
 */
describe('undo recreates only the meta rows a term had', () => {
  /** The term's meta rows as WordPress stores them (key → value), not as REST shows them. */
  const rows = async (id: number) =>
    JSON.parse(await wpPhp(`echo json_encode((object) array_map(fn ($v) => $v[0], get_term_meta(${id}) ?: []));`)) as Record<
      string,
      string
    >;

  // Tags too: REST names post_tag's object type "tag", where the plugin's field must be registered.
  it.each([
    ['delete-category', '/wp/v2/categories', 'one of its two registered keys', { color: 'c-only' }, { color: 'c-only' }],
    ['delete-category', '/wp/v2/categories', 'none of them', {}, {}],
    ['delete-tag', '/wp/v2/tags', 'one of its two registered keys', { rank: 4 }, { rank: '4' }],
  ])('%s (%s) of a term with %s → undo recreates exactly those rows', async (tool, route, _what, meta, want) => {
    const context = journalled();
    const made = await wp().post<Term>(route, { name: unique('Meta rows'), meta }, { context: 'edit' });
    expect(await rows(made.id)).toEqual(want);
    // REST cannot tell: it shows the unset key with its default.
    expect(made.meta).toEqual({ ...(route.endsWith('categories') ? CATEGORY_META : {}), color: '', rank: 0, ...meta });
    await callOkIn(context, tool, { id: made.id, force: true });

    const report = await undoChange(context, context.journal!);
    expect(report.conflicts).toEqual([]);
    const back = (await bySlug(route, made.slug))!;
    expect(back.id).not.toBe(made.id);
    expect(await rows(back.id)).toEqual(want);
    expect(back.meta).toEqual(made.meta);
  });
});

