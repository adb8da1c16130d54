import { describe, expect, it } from 'vitest';
import { callOk, unique, wp } from '../../helpers/site.js';

const STATUSES = 'publish,draft,pending,private,future';

describe('parallel writes to the same posts', () => {
  it('two assigns at once (parallel tool calls) both land on every post', async () => {
    const posts = await wp().get<Array<{ id: number }>>('/wp/v2/posts', {
      status: STATUSES,
      context: 'edit',
      per_page: 30,
      _fields: 'id',
      orderby: 'id',
    });
    const ids = posts.map((p) => p.id);
    const [a, b] = await Promise.all([
      wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Par A') }),
      wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Par B') }),
    ]);
    const tagA = await wp().post<{ id: number }>('/wp/v2/tags', { name: unique('Par tag') });
    await Promise.all([
      callOk('assign-categories-to-posts', { post_ids: ids, category_ids: [a!.id] }),
      callOk('assign-categories-to-posts', { post_ids: ids, category_ids: [b!.id] }),
      callOk('assign-tags-to-posts', { post_ids: ids, tag_ids: [tagA.id] }),
    ]);
    const after = await wp().get<Array<{ id: number; categories: number[]; tags: number[] }>>('/wp/v2/posts', {
      include: ids,
      status: STATUSES,
      context: 'edit',
      per_page: 100,
      _fields: 'id,categories,tags',
    });
    expect(after).toHaveLength(ids.length);
    for (const post of after) {
      expect(post.categories, `post ${post.id}`).toEqual(expect.arrayContaining([a!.id, b!.id]));
      expect(post.tags, `post ${post.id}`).toContain(tagA.id);
    }
  });
});
