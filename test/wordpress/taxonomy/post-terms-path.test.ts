import { describe, expect, it } from 'vitest';
import { WordPressError } from '../../../src/client/index.js';
import { changePostTerms } from '../../../src/tools/taxonomy/change-post-terms.js';
import { restOnlyContext, testContext, unique, wp } from '../../helpers/site.js';
import { makeCategory, makePosts, makeTag } from './fixtures.js';

/** The bulk post-terms path for any taxonomy (here `genre`, REST base `genres`), on both paths. */
const GENRE = { taxonomy: 'genre', postsParam: 'genres', route: '/wp/v2/genres', noun: 'genre' };

async function genresOf(ids: number[]) {
  const posts = await wp().get<Array<{ id: number; genres: number[]; categories: number[] }>>('/wp/v2/posts', {
    include: ids,
    status: 'publish,draft',
    context: 'edit',
    _fields: 'id,genres,categories',
    per_page: 100,
  });
  return new Map(posts.map((p) => [p.id, p]));
}

describe('changePostTerms for any taxonomy', () => {
  it.each([
    ['companion plugin', testContext],
    ['core API', restOnlyContext],
  ] as const)('adds some genres and removes others as changes, keeping the rest (%s)', async (_path, context) => {
    const [a, b, keep] = await Promise.all(
      ['A', 'B', 'Keep'].map((n) => wp().post<{ id: number }>('/wp/v2/genres', { name: unique(`Genre ${n}`) })),
    );
    const posts = await makePosts([{}, {}, {}]);
    await wp().batch(posts.map((id) => ({ path: `/wp/v2/posts/${id}`, body: { genres: [a!.id, keep!.id] } })));
    const { client } = context();
    const report = await changePostTerms(client, GENRE, [...posts, 987654321], { add: [b!.id], remove: [a!.id] });
    expect(report.updated.sort()).toEqual([...posts].sort());
    expect(report.failed).toMatchObject([{ post_id: 987654321, error: { code: 'post_not_found' } }]);
    const site = await genresOf(posts);
    for (const id of posts) expect(site.get(id)?.genres.sort()).toEqual([b!.id, keep!.id].sort());
  });
});

describe('the plugin route refuses ids of another taxonomy (issue #26, finding 9)', () => {
  it('a tag id among categories fails the call by name; no post changes', async () => {
    const [cat, tag] = [await makeCategory('Route cat'), await makeTag('Route tag')];
    const [post] = (await makePosts([{ categories: [cat.id] }])) as [number];
    const refused = await wp()
      .post('/cms-admin/v1/post-terms', { taxonomy: 'category', post_ids: [post], add: [tag.id] })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(WordPressError);
    expect(refused).toMatchObject({ status: 400, code: 'cms_admin_term_not_in_taxonomy' });
    expect((refused as WordPressError).message).toContain(`${tag.id} (post_tag)`);
    const removed = await wp()
      .post('/cms-admin/v1/post-terms', { taxonomy: 'category', post_ids: [post], remove: [tag.id] })
      .catch((err: unknown) => err);
    expect(removed).toMatchObject({ code: 'cms_admin_term_not_in_taxonomy' });
    expect((await genresOf([post])).get(post)?.categories).toEqual([cat.id]);
  });

  it('an id that is no term at all fails each post by name, the others are unchanged', async () => {
    const [post] = (await makePosts([{}])) as [number];
    const before = (await genresOf([post])).get(post)?.categories;
    const report = await wp().post<{ failed: Array<{ post_id: number; code: string; message: string }> }>(
      '/cms-admin/v1/post-terms',
      { taxonomy: 'category', post_ids: [post], add: [987654321] },
    );
    expect(report.failed).toMatchObject([{ post_id: post, code: 'term_not_found' }]);
    expect(report.failed[0]?.message).toContain('987654321');
    expect((await genresOf([post])).get(post)?.categories).toEqual(before);
  });
});
