import { describe, expect, it } from 'vitest';
import { perPost, type BulkAnswer } from '../helpers/listing.js';
import { unique, wp } from '../helpers/site.js';
import { makeCategory, makePosts, makeTag, readPosts, readTerm } from '../wordpress/taxonomy/fixtures.js';
import { BATCH, BULK, companion, proxied, proxy, run, useFaultProxy } from './fault-setup.js';

useFaultProxy();

/**
 * WordPress applied the write, the answer never arrived (the proxy drops it): the tools read
 * the site back and say done, or, when the read fails too, "outcome unknown" with what to
 * check — never a plain failure for a change that happened.
 */
describe('answers lost after WordPress applied the write', () => {
  it('delete-category: read back, reported deleted', async () => {
    const c = await makeCategory('Lost delete');
    proxy
      .clear()
      .inject({ method: 'DELETE', path: /\/wp\/v2\/categories\/\d+/, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(proxied(), 'delete-category', { id: c.id, force: true });
    proxy.clear();
    expect(outcome).toMatchObject({ ok: true, result: { deleted: { id: c.id } } });
    expect(await readTerm('categories', c.id)).toBeUndefined();
  });

  it('create-category: read back by name, reported created with the id WordPress gave it', async () => {
    const name = unique('Lost create');
    proxy.clear().inject({ method: 'POST', path: /\/wp\/v2\/categories(\?|$)/, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(proxied(), 'create-category', { name });
    proxy.clear();
    const onSite = await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', { search: name });
    expect(onSite.map((c) => c.name)).toEqual([name]);
    expect(outcome).toMatchObject({ ok: true, result: { id: onSite[0]?.id, name } });
  });

  it('update-tag: read back, reported renamed; a write WordPress never got stays a failure', async () => {
    const tag = await makeTag('Lost rename');
    const name = unique('Renamed');
    const path = new RegExp(`/wp/v2/tags/${tag.id}(\\?|$)`);
    proxy.clear().inject({ method: 'POST', path, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(proxied(), 'update-tag', { id: tag.id, name });
    expect(outcome).toMatchObject({ ok: true, result: { id: tag.id, name } });
    expect((await readTerm('tags', tag.id))?.name).toBe(name);

    const never = unique('Never');
    proxy.clear().inject({ method: 'POST', path, fault: { kind: 'drop', when: 'before' } });
    const failed = await run(proxied(), 'update-tag', { id: tag.id, name: never });
    proxy.clear();
    expect(failed.ok).toBe(false);
    expect((await readTerm('tags', tag.id))?.name).toBe(name);
  });

  it('delete-category: the read-back fails too → outcome_unknown, saying what to check', async () => {
    const c = await makeCategory('Lost delete unknown');
    const term = new RegExp(`/wp/v2/categories/${c.id}\\b`);
    proxy
      .clear()
      .inject({ method: 'DELETE', path: term, fault: { kind: 'drop', when: 'after' } })
      // The first read of the term is the tool's own check; every read after the delete fails.
      .inject({ method: 'GET', path: term, nth: [2, 3, 4, 5, 6], fault: { kind: 'drop', when: 'before' } });
    const outcome = await run(proxied(), 'delete-category', { id: c.id, force: true });
    proxy.clear();
    expect(outcome).toMatchObject({ ok: false, error: { code: 'outcome_unknown' } });
    expect(!outcome.ok && outcome.error.hint).toMatch(/still exists/);
    expect(await readTerm('categories', c.id)).toBeUndefined();
  });

  it.each([
    ['companion plugin', companion, BULK],
    ['core API', proxied, BATCH],
  ] as const)(
    'assign (%s): every bulk write applied, every answer lost → all reported updated',
    async (_path, context, writes) => {
      const c = await makeCategory('Lost bulk');
      const posts = await makePosts(Array.from({ length: 60 }, () => ({})));
      proxy.clear().inject({ method: 'POST', path: writes, fault: { kind: 'drop', when: 'after' } });
      const outcome = await run(context(), 'assign-categories-to-posts', { post_ids: posts, category_ids: [c.id] });
      proxy.clear();
      expect(outcome.ok).toBe(true);
      expect(perPost((outcome as { result: BulkAnswer }).result).updated.sort()).toEqual([...posts].sort());
      const site = await readPosts(posts);
      for (const id of posts) expect(site.get(id)?.categories).toContain(c.id);
    },
  );

  it.each([
    // The plugin path reads the posts only after its write; the core path once before, under the lock.
    ['companion plugin', companion, BULK, undefined],
    ['core API', proxied, BATCH, [2, 3, 4, 5]],
  ] as const)(
    'assign (%s): the answer lost and the posts unreadable → outcome_unknown, not "failed"',
    async (_path, context, writes, nth) => {
      const c = await makeCategory('Lost bulk unknown');
      const posts = await makePosts(Array.from({ length: 10 }, () => ({})));
      proxy
        .clear()
        .inject({ method: 'POST', path: writes, fault: { kind: 'drop', when: 'after' } })
        // The posts' reads: the plugin's read route (0.4.0) where the site has it, core's otherwise.
        .inject({ method: 'GET', path: writes === BULK ? BULK : /\/wp\/v2\/posts\?/, nth, fault: { kind: 'drop', when: 'before' } });
      const outcome = await run(context(), 'assign-categories-to-posts', { post_ids: posts, category_ids: [c.id] });
      proxy.clear();
      expect(outcome).toMatchObject({ ok: false, error: { code: 'outcome_unknown' } });
      expect(!outcome.ok && outcome.error.message).toMatch(/unknown/);
      const site = await readPosts(posts);
      for (const id of posts) expect(site.get(id)?.categories).toContain(c.id);
    },
  );

  it('update-user (not read back): the error says WordPress may have applied it, and it had', async () => {
    const username = unique('lost_user').replace(/\W+/g, '_').toLowerCase();
    const user = await wp().post<{ id: number }>('/wp/v2/users', {
      username,
      email: `${username}@example.org`,
      password: `Lost-${username}-horse-battery`,
    });
    const name = unique('Lost name');
    proxy
      .clear()
      .inject({
        method: 'POST',
        path: new RegExp(`/wp/v2/users/${user.id}\\b`),
        fault: { kind: 'drop', when: 'after' },
      });
    const outcome = await run(proxied(), 'update-user', { id: user.id, name });
    proxy.clear();
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error.hint).toMatch(/may have applied it/);
    expect((await wp().get<{ name: string }>(`/wp/v2/users/${user.id}`, { context: 'edit' })).name).toBe(name);
  });

  it('merge (core API): the posts’ batches applied, answers lost → moved, sources deleted', async () => {
    const [s, t] = [await makeCategory('Lost S'), await makeCategory('Lost T')];
    const posts = await makePosts(Array.from({ length: 60 }, () => ({ categories: [s.id] })));
    proxy.clear().inject({ method: 'POST', path: BATCH, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(proxied(), 'merge-categories', {
      source_ids: [s.id],
      target_id: t.id,
      delete_sources: true,
    });
    proxy.clear();
    expect(outcome).toMatchObject({ ok: true, result: { posts_moved: 60, posts_failed: [], sources_deleted: [s.id] } });
    const site = await readPosts(posts);
    for (const id of posts) expect(site.get(id)?.categories).toEqual([t.id]);
    expect(await readTerm('categories', s.id)).toBeUndefined();
  });

  it('merge (companion plugin) failing after its post writes says what it wrote, and deletes nothing', async () => {
    const [s, t] = [await makeCategory('Half S'), await makeCategory('Half T')];
    const posts = await makePosts(Array.from({ length: 20 }, () => ({ categories: [s.id] })));
    // The plan's read of the source's posts passes; the re-read before deleting keeps failing.
    proxy.clear().inject({
      method: 'GET',
      path: /\/cms-admin\/v1\/post-terms\?.*\bterm_ids=/,
      nth: [2, 3, 4, 5],
      fault: { kind: 'drop', when: 'before' },
    });
    const outcome = await run(companion(), 'merge-categories', {
      source_ids: [s.id],
      target_id: t.id,
      delete_sources: true,
    });
    proxy.clear();
    expect(outcome).toMatchObject({ ok: false, error: { details: { posts_moved: 20 } } });
    expect(!outcome.ok && outcome.error.message).toMatch(/20 post\(s\) had been moved .* no source was deleted/);
    const site = await readPosts(posts);
    for (const id of posts) expect(site.get(id)?.categories).toEqual([t.id]);
    expect(await readTerm('categories', s.id)).toBeDefined();
  });

  it('merge: the children’s re-parenting applied, its answer lost → read back, reported, sources deleted', async () => {
    const [s, t] = [await makeCategory('Lost parent S'), await makeCategory('Lost parent T')];
    const child = await makeCategory('Lost child', s.id);
    await makePosts([{ categories: [s.id] }]);
    proxy.clear().inject({ method: 'POST', path: BATCH, body: /"parent"/, fault: { kind: 'drop', when: 'after' } });
    const outcome = await run(companion(), 'merge-categories', {
      source_ids: [s.id],
      target_id: t.id,
      delete_sources: true,
    });
    proxy.clear();
    expect(outcome).toMatchObject({ ok: true, result: { children_reparented: [child.id], sources_deleted: [s.id] } });
    expect((await readTerm('categories', child.id))?.parent).toBe(t.id);
  });
});
