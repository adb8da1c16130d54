import { describe, expect, it } from 'vitest';
import { perPost } from '../../helpers/listing.js';
import { call, callOk } from '../../helpers/site.js';
import { makePosts, makeTag, readPosts } from './fixtures.js';

describe('assign-tags-to-posts', () => {
  it('adds tags, keeping existing tags; posts that have them all are unchanged', async () => {
    const old = await makeTag('Old');
    const t1 = await makeTag('New1');
    const t2 = await makeTag('New2');
    const ids = await makePosts([
      { status: 'publish', tags: [old.id] },
      { status: 'private', tags: [t1.id] },
      { status: 'draft', tags: [t1.id, t2.id] },
    ]);
    const result = perPost(await callOk('assign-tags-to-posts', { post_ids: ids, tag_ids: [t1.id, t2.id] }));
    expect(result).toEqual({ updated: [ids[0], ids[1]], unchanged: [ids[2]], failed: [] });
    const posts = await readPosts(ids);
    expect(posts.get(ids[0] as number)?.tags.sort()).toEqual([old.id, t1.id, t2.id].sort());
    expect(posts.get(ids[1] as number)?.tags.sort()).toEqual([t1.id, t2.id].sort());
  });

  it('an unknown tag id: error naming it, nothing written; unknown posts: reported', async () => {
    const tag = await makeTag('Known');
    const ids = await makePosts([{ status: 'pending' }]);
    expect(await call('assign-tags-to-posts', { post_ids: ids, tag_ids: [999_999, tag.id] })).toMatchObject({
      ok: false,
      error: { code: 'tag_not_found', details: { missing_ids: [999_999] } },
    });
    expect((await readPosts(ids)).get(ids[0] as number)?.tags).toEqual([]);

    const result = perPost(await callOk('assign-tags-to-posts', { post_ids: [999_999, ...ids], tag_ids: [tag.id] }));
    expect(result.updated).toEqual(ids);
    expect(result.failed).toMatchObject([{ post_id: 999_999, error: { code: 'post_not_found' } }]);
  });
});
