import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_TITLE, removeEntry, siteLockOptions } from '../../../src/tools/taxonomy/site-lock.js';
import { callIn, restOnlyContext, wp } from '../../helpers/site.js';
import { makeCategory, makePosts, readPosts } from './fixtures.js';

/** The core-API path's lock on the site (site-lock.ts): a draft reusable block per writer. */
async function lockEntries() {
  return wp().all<{ id: number }>('/wp/v2/blocks', {
    search: LOCK_TITLE,
    status: 'draft',
    context: 'edit',
    _fields: 'id',
  });
}

async function entry(until: Date) {
  const title = `${LOCK_TITLE} (other-holder) until ${until.toISOString()} - safe to delete after that`;
  return (await wp().post<{ id: number }>('/wp/v2/blocks', { title, status: 'draft', content: '' })).id;
}

describe('the site lock for post-term writes without the plugin', () => {
  let wait: number;
  beforeAll(() => {
    wait = siteLockOptions.waitMs;
    siteLockOptions.waitMs = 800;
  });
  afterAll(() => {
    siteLockOptions.waitMs = wait;
  });

  it('a live lock of another call: site_busy, nothing changed; an expired one is taken over and removed', async () => {
    const c = await makeCategory('Lock');
    const posts = await makePosts([{}, {}]);
    const live = await entry(new Date(Date.now() + 60_000));
    const busy = await callIn(restOnlyContext(), 'assign-categories-to-posts', {
      post_ids: posts,
      category_ids: [c.id],
    });
    expect(busy).toMatchObject({ ok: false, error: { code: 'site_busy', details: { lock_id: live } } });
    for (const post of (await readPosts(posts)).values()) expect(post.categories).not.toContain(c.id);

    expect(await removeEntry(wp(), live)).toBe(true);
    const stale = await entry(new Date(Date.now() - 1_000));
    const done = await callIn(restOnlyContext(), 'assign-categories-to-posts', {
      post_ids: posts,
      category_ids: [c.id],
    });
    expect(done.ok).toBe(true);
    for (const post of (await readPosts(posts)).values()) expect(post.categories).toContain(c.id);
    // The expired entry and the call's own are gone: nothing is left behind.
    expect((await lockEntries()).map((e) => e.id)).not.toContain(stale);
    expect(await lockEntries()).toEqual([]);
  });
});
