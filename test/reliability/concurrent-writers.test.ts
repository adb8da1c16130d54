import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/call/index.js';
import { siteLockOptions } from '../../src/tools/taxonomy/site-lock.js';
import { makeCategory, makePosts, readTerm } from '../wordpress/taxonomy/fixtures.js';
import { BULK, run, useFaultProxy } from './fault-setup.js';
import { meet, PATHS } from './meet.js';
import { checkAssignAnswer, checkDeleteAnswer, checkMergeAnswer, noTermLost, readPosts } from './writer-checks.js';

useFaultProxy();

/**
 * Two calls meet (meet.ts: the first call's bulk writes held at the proxy until the second
 * call has answered). On each path, after each pair: no post lost a term no call removed, and
 * every ok answer matches the site.
 */
const POSTS = 60;

/** Posts in `groups[i % groups.length]`, every third also in a category no call touches. */
async function postsIn(groups: number[][]): Promise<number[]> {
  const keep = await makeCategory('Meet keep');
  return makePosts(
    Array.from({ length: POSTS }, (_, i) => ({
      status: (['publish', 'draft', 'private'] as const)[i % 3],
      categories: [...(groups[i % groups.length] as number[]), ...(i % 3 === 0 ? [keep.id] : [])],
    })),
  );
}

describe.each(PATHS)('two writers meet, $path', ({ first, second, writes }) => {
  let wait: number;
  beforeAll(() => {
    // The core path's second post-terms call waits for the held one's lock this long, then
    // gives up having changed nothing (site_busy); the proxy releases the first call after it,
    // so the wait always runs out: it is kept short (two polls of the lock).
    wait = siteLockOptions.waitMs;
    siteLockOptions.waitMs = 500;
  });
  afterAll(() => {
    siteLockOptions.waitMs = wait;
  });

  it('merge vs delete of its target: the posts keep their source, which stays; the answer says where its child went', async () => {
    const [s, t] = [await makeCategory('Meet S'), await makeCategory('Meet T')];
    const child = await makeCategory('Meet child', s.id);
    const posts = await postsIn([[s.id]]);
    const before = await readPosts(posts);
    const [merge, del] = await meet(
      writes,
      () => run(first(), 'merge-categories', { source_ids: [s.id], target_id: t.id, delete_sources: true }),
      () => run(second(), 'delete-category', { id: t.id, force: true }),
    );
    const after = await readPosts(posts);
    noTermLost(before, after, (term) => term === t.id);
    await checkMergeAnswer(merge, { sources: [s.id], target: t.id, posts }, after);
    await checkDeleteAnswer(del, t.id);
    expect(del.ok).toBe(true);
    expect(merge).toMatchObject({ ok: false, error: { code: 'all_posts_failed' } });
    expect(await readTerm('categories', s.id)).toBeDefined();
    // The child's re-parenting runs beside the held post writes: moved (then WordPress moved it
    // on when the target went) or refused (the target gone) — either way the answer says which.
    if ((await readTerm('categories', child.id))?.parent === s.id)
      expect(JSON.stringify(merge)).toContain('nothing was changed');
    else expect(merge).toMatchObject({ error: { details: { children_reparented: [child.id] } } });
  });

  it('merge vs delete of its target after the posts moved (the check before deleting sources held): the posts get their source back, which stays', async () => {
    const [s, t] = [await makeCategory('Meet S'), await makeCategory('Meet T')];
    const posts = await postsIn([[s.id]]);
    const before = await readPosts(posts);
    // The merge's last look at its target (after the post-terms write's own check).
    const check = { method: 'GET', path: new RegExp(`/wp/v2/categories\\?include=${t.id}&_fields=id&`), nth: 2 };
    const [merge, del] = await meet(
      check,
      () => run(first(), 'merge-categories', { source_ids: [s.id], target_id: t.id, delete_sources: true }),
      () => run(second(), 'delete-category', { id: t.id, force: true }),
    );
    const after = await readPosts(posts);
    noTermLost(before, after, (term) => term === t.id);
    await checkMergeAnswer(merge, { sources: [s.id], target: t.id, posts }, after);
    expect(del.ok).toBe(true);
    expect(merge).toMatchObject({ ok: false, error: { code: 'all_posts_failed' } });
    expect(JSON.stringify(merge)).toContain('was deleted meanwhile');
    expect(await readTerm('categories', s.id)).toBeDefined();
  });

  it('assign vs delete of its category: reported failed, the posts keep what they had', async () => {
    const [x, other] = [await makeCategory('Meet X'), await makeCategory('Meet other')];
    const posts = await postsIn([[other.id], []]);
    const before = await readPosts(posts);
    const [assign, del] = await meet(
      writes,
      () => run(first(), 'assign-categories-to-posts', { post_ids: posts, category_ids: [x.id] }),
      () => run(second(), 'delete-category', { id: x.id, force: true }),
    );
    const after = await readPosts(posts);
    noTermLost(before, after, () => false);
    checkAssignAnswer(assign, x.id, posts, after);
    await checkDeleteAnswer(del, x.id);
    expect(assign).toMatchObject({ ok: false, error: { code: 'all_posts_failed' } });
    expect(JSON.stringify(assign)).toContain(`${x.id}`);
  });

  it.each(['merge', 'assign'] as const)(
    'merge vs assign on the same posts (the %s held): neither change is lost',
    async (held) => {
      const [s, t, x] = [await makeCategory('Meet S'), await makeCategory('Meet T'), await makeCategory('Meet X')];
      const posts = await postsIn([[s.id]]);
      const before = await readPosts(posts);
      const mergeIn = (context: ToolContext) =>
        run(context, 'merge-categories', { source_ids: [s.id], target_id: t.id, delete_sources: true });
      const assignIn = (context: ToolContext) =>
        run(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [x.id] });
      const [a, b] = await meet(
        writes,
        () => (held === 'merge' ? mergeIn : assignIn)(first()),
        () => (held === 'merge' ? assignIn : mergeIn)(second()),
      );
      const [merge, assign] = held === 'merge' ? [a, b] : [b, a];
      const after = await readPosts(posts);
      noTermLost(before, after, (term, now) => term === s.id && now.includes(t.id));
      await checkMergeAnswer(merge, { sources: [s.id], target: t.id, posts }, after);
      checkAssignAnswer(assign, x.id, posts, after);
      // With the plugin both land; on the core path the second call waited for the held one's
      // lock and gave up, changing nothing.
      expect(a.ok).toBe(true);
      if (writes === BULK) expect(b.ok).toBe(true);
      else expect(b).toMatchObject({ ok: false, error: { code: 'site_busy' } });
    },
  );

  it('two merges sharing a source: every post ends in a target, none in neither', async () => {
    const [s, sa, sb] = [await makeCategory('Meet S'), await makeCategory('Meet SA'), await makeCategory('Meet SB')];
    const [ta, tb] = [await makeCategory('Meet TA'), await makeCategory('Meet TB')];
    const posts = await postsIn([
      [s.id, sa.id],
      [s.id, sb.id],
    ]);
    const before = await readPosts(posts);
    const [a, b] = await meet(
      writes,
      () => run(first(), 'merge-categories', { source_ids: [s.id, sa.id], target_id: ta.id, delete_sources: true }),
      () => run(second(), 'merge-categories', { source_ids: [s.id, sb.id], target_id: tb.id, delete_sources: true }),
    );
    const after = await readPosts(posts);
    noTermLost(
      before,
      after,
      (term, now) =>
        ([s.id, sa.id].includes(term) && now.includes(ta.id)) || ([s.id, sb.id].includes(term) && now.includes(tb.id)),
    );
    await checkMergeAnswer(a, { sources: [s.id, sa.id], target: ta.id, posts }, after);
    await checkMergeAnswer(b, { sources: [s.id, sb.id], target: tb.id, posts }, after);
    expect(a.ok).toBe(true);
  });
});
