import { describe, expect, it } from 'vitest';
import { wp } from '../helpers/site.js';
import { makeCategory, makePosts, readPosts } from '../wordpress/taxonomy/fixtures.js';
import { POSTS, proxied, proxy, run, useFaultProxy } from './fault-setup.js';

useFaultProxy();

/**
 * The core API path against a writer outside the toolkit (wp-admin saving a post with the
 * category list it showed, another plugin): it takes no site lock, so it can undo a change just
 * written. The read-back after each write is held at the proxy while that writer puts the old
 * lists back, then released: the change is written again, 3 times at most, then each post still
 * without it fails with changed_meanwhile naming what it has (docs/concurrency.md).
 */
describe('core API path: a writer outside the toolkit undoes the change', () => {
  async function assignUndone(times: number) {
    const [s, x] = [await makeCategory('Outside S'), await makeCategory('Outside X')];
    const posts = await makePosts(Array.from({ length: 20 }, () => ({ categories: [s.id] })));
    const hold = () => proxy.clear().inject({ method: 'GET', path: POSTS, nth: 1, fault: { kind: 'hold' } });
    // The first read of the posts passes (the plan); each read after a write is held once.
    proxy.clear().inject({ method: 'GET', path: POSTS, nth: 2, fault: { kind: 'hold' } });
    const call = run(proxied(), 'assign-categories-to-posts', { post_ids: posts, category_ids: [x.id] });
    for (let undone = 0; undone < times; undone++) {
      await proxy.whenHeld();
      await wp().batch(posts.map((id) => ({ path: `/wp/v2/posts/${id}`, body: { categories: [s.id] } })));
      if (undone + 1 < times) hold();
      else proxy.clear();
    }
    const outcome = await call;
    proxy.clear();
    return { outcome, posts, site: await readPosts(posts), s, x };
  }

  it('undone once: written again, reported updated, every post has it', async () => {
    const { outcome, posts, site, s, x } = await assignUndone(1);
    expect(outcome).toMatchObject({ ok: true, result: { updated: 20, failed: 0 } });
    for (const id of posts) expect(site.get(id)?.categories.sort()).toEqual([s.id, x.id].sort());
  });

  it('undone after every write: 3 writes, then changed_meanwhile naming what each post has', async () => {
    const { outcome, posts, site, s } = await assignUndone(3);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'all_posts_failed' } });
    expect(JSON.stringify(outcome)).toContain('changed_meanwhile');
    expect(JSON.stringify(outcome)).toContain(`after 3 writes it has ${s.id}`);
    for (const id of posts) expect(site.get(id)?.categories).toEqual([s.id]);
  });
});
