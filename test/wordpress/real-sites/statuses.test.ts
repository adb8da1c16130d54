import { describe, expect, it } from 'vitest';
import { perPost } from '../../helpers/listing.js';
import { callIn, callOkIn, restOnlyContext, unique, wp } from '../../helpers/site.js';

const FIELDS = 'id,status,date,date_gmt,slug,author,content,sticky,categories';
type Post = Record<string, unknown> & { id: number; status: string; categories: number[] };
const read = (id: number) => wp().get<Post>(`/wp/v2/posts/${id}`, { context: 'edit', _fields: FIELDS });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19);

describe('assigning terms without the companion plugin changes nothing else', () => {
  it('draft, pending, private, scheduled and sticky posts keep status, date, slug, author, content and sticky', async () => {
    const category = (await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('KeepAll') })).id;
    const make = (body: Record<string, unknown>) =>
      wp().post<Post>('/wp/v2/posts', { title: unique('Keep'), content: 'As written.', ...body });
    // Drafts and pending posts with a date of their own (an undated draft's date is "last saved",
    // which WordPress moves on every save: see the floating-date note in docs/real-sites.md).
    const posts = await Promise.all([
      make({ status: 'draft', date: '2021-03-04T05:06:07', slug: 'kept-draft-slug' }),
      make({ status: 'pending', date: '2021-03-04T05:06:07' }),
      make({ status: 'private', date: '2020-01-01T00:00:00' }),
      make({ status: 'future', date: inDays(3) }),
      make({ status: 'publish', sticky: true, date: '2019-06-07T08:09:10' }),
    ]);
    const before = await Promise.all(posts.map((p) => read(p.id)));
    const report = perPost(
      await callOkIn(restOnlyContext(), 'assign-categories-to-posts', {
        post_ids: posts.map((p) => p.id),
        category_ids: [category],
      }),
    );
    expect(report.updated).toEqual(posts.map((p) => p.id).sort((a, b) => a - b));
    const after = await Promise.all(posts.map((p) => read(p.id)));
    after.forEach((post, i) => {
      expect(post.categories).toContain(category);
      const { categories: _a, ...rest } = post;
      const { categories: _b, ...was } = before[i] as Post;
      expect(rest, `post ${post.id} (${was.status})`).toEqual(was);
    });
  });

  it('a scheduled post whose time has passed is left as it is and reported, not published', async () => {
    const category = (await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Missed') })).id;
    const post = await wp().post<Post>('/wp/v2/posts', { title: unique('Missed'), status: 'future', date: inDays(2) });
    await wp().post(`/cms-sandbox/v1/posts/${post.id}/miss-schedule`);
    const before = await read(post.id);
    expect(before.status).toBe('future');
    // Its only post failed: the call is an error (all_posts_failed) naming the reason.
    const outcome = await callIn(restOnlyContext(), 'assign-categories-to-posts', {
      post_ids: [post.id],
      category_ids: [category],
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'all_posts_failed', details: { failures: [{ post_ids: `${post.id}`, code: 'scheduled_time_passed' }] } },
    });
    expect(await read(post.id)).toEqual(before);
  });
});
