import { describe, expect, it } from 'vitest';
import { callOkIn, unique, wp } from '../helpers/site.js';
import { makeCategory, makePosts, readPosts } from '../wordpress/taxonomy/fixtures.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { journaled } from './undo-engine.js';

/**
 * Issue #24: conflicts are said, not overwritten. Someone changes an object after the recorded
 * write; the undo reports it per item and leaves it, unless forced. The later writes are made
 * straight through WordPress (`wp()`), as another admin in wp-admin would.
 */
describe('undo: a later change by someone else is a conflict', () => {
  it('a category renamed again after the recorded rename: reported, kept; with force, restored', async () => {
    const journal = memoryJournal();
    const context = journaled(journal);
    const cat = await makeCategory('Conflict original');
    await callOkIn(context, 'update-category', { id: cat.id, name: unique('Conflict ours') });
    const theirs = unique('Conflict theirs');
    await wp().post(`/wp/v2/categories/${cat.id}`, { name: theirs });

    const report = await undoChange(context, journal);
    expect(report.conflicts).toHaveLength(1);
    expect(report.conflicts[0]?.item).toContain(String(cat.id));
    expect(report.conflicts[0]?.reason).toMatch(/\S/);
    expect(report.restored).toEqual([]);
    expect((await wp().get<{ name: string }>(`/wp/v2/categories/${cat.id}`)).name).toBe(theirs);

    const forced = await undoChange(context, journal, { change_id: report.change_id, force: true });
    expect(forced.conflicts).toEqual([]);
    expect(forced.restored.length).toBeGreaterThan(0);
    expect((await wp().get<{ name: string }>(`/wp/v2/categories/${cat.id}`)).name).toBe(cat.name);
  });

  it('a role changed again after set-user-role: reported, kept; with force, restored', async () => {
    const journal = memoryJournal();
    const context = journaled(journal);
    const username = unique('conflict').replace(/\W+/g, '_').toLowerCase();
    const user = await wp().post<{ id: number }>('/wp/v2/users', {
      username,
      email: `${username}@example.org`,
      password: `Conflict-${username}-horse-battery`,
      roles: ['author'],
    });
    await callOkIn(context, 'set-user-role', { id: user.id, role: 'editor' });
    await wp().post(`/wp/v2/users/${user.id}`, { roles: ['contributor'] });
    const roles = async () => (await wp().get<{ roles: string[] }>(`/wp/v2/users/${user.id}`, { context: 'edit' })).roles;

    const report = await undoChange(context, journal);
    expect(report.conflicts.map((c) => c.item).join()).toContain(String(user.id));
    expect(await roles()).toEqual(['contributor']);

    await undoChange(context, journal, { change_id: report.change_id, force: true });
    expect(await roles()).toEqual(['author']);
  });

  it('posts re-categorised after an assign: the undo takes off only what the assign added, the others’ changes stay; no conflict (#34.4)', async () => {
    const journal = memoryJournal();
    const context = journaled(journal);
    const home = await makeCategory('Conflict home');
    const [one, two, theirs] = [await makeCategory('Conflict one'), await makeCategory('Conflict two'), await makeCategory('Conflict theirs')];
    const posts = await makePosts(Array.from({ length: 6 }, () => ({ categories: [home.id] })));
    await callOkIn(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [one.id, two.id] });
    const [partly, extended, ...untouched] = posts as [number, number, ...number[]];
    // Someone took one of the assigned categories off one post, and filed another post elsewhere too.
    await wp().post(`/wp/v2/posts/${partly}`, { categories: [home.id, two.id] });
    await wp().post(`/wp/v2/posts/${extended}`, { categories: [home.id, one.id, two.id, theirs.id] });

    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(report.incomplete).toBeUndefined();
    const site = await readPosts(posts);
    expect(site.get(partly)?.categories).toEqual([home.id]);
    expect(site.get(extended)?.categories.sort()).toEqual([home.id, theirs.id].sort());
    for (const id of untouched) expect(site.get(id)?.categories).toEqual([home.id]);
  });
});
