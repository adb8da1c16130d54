import { describe, expect, it } from 'vitest';
import { call, callOk } from '../../helpers/site.js';
import { makePosts, makeTag, readPost, readTerm } from './fixtures.js';

describe('delete-tag', () => {
  it('refuses a tag used by pending and private posts, then deletes it with force', async () => {
    const tag = await makeTag('Busy');
    const keep = await makeTag('Keep');
    const ids = await makePosts([
      { status: 'pending', tags: [tag.id, keep.id] },
      { status: 'private', tags: [tag.id] },
    ]);
    expect(await call('delete-tag', { id: tag.id, force: false })).toMatchObject({
      ok: false,
      error: { code: 'term_in_use', details: { posts: 2 } },
    });
    expect(await readTerm('tags', tag.id)).toBeDefined();

    expect(await callOk('delete-tag', { id: tag.id, force: true })).toEqual({
      deleted: { id: tag.id, name: tag.name },
      posts_affected: 2,
    });
    expect(await readTerm('tags', tag.id)).toBeUndefined();
    expect((await readPost(ids[0] as number)).tags).toEqual([keep.id]);
    expect((await readPost(ids[1] as number)).tags).toEqual([]);
  });

  it('deletes an unused tag; an unknown id is a not-found error', async () => {
    const tag = await makeTag('Idle');
    expect(await callOk('delete-tag', { id: tag.id })).toEqual({
      deleted: { id: tag.id, name: tag.name },
      posts_affected: 0,
    });
    expect(await readTerm('tags', tag.id)).toBeUndefined();
    expect(await call('delete-tag', { id: tag.id })).toMatchObject({ ok: false, error: { code: 'tag_not_found' } });
  });
});
