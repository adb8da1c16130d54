import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange, undoLast } from '../../src/undo/undo.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { makeCategory, makePosts, makeTag, readPosts, readTerm } from './taxonomy/fixtures.js';

/** A context of its own with a journal in memory: every write recorded, so it can be undone. */
function journalled() {
  const journal = memoryJournal();
  return { context: createContext(testSite(), { journal }), journal };
}

async function slugOwner(route: 'categories' | 'tags', slug: string) {
  const [term] = await wp().get<Array<Record<string, any>>>(`/wp/v2/${route}`, {
    slug,
    context: 'edit',
    hide_empty: false,
  });
  if (!term) throw new Error(`no term with slug ${slug}`);
  return term;
}

describe('undo of term writes', () => {
  it('create-category → undo deletes it; the entry says what was created; undoing twice is refused', async () => {
    const { context, journal } = journalled();
    const name = unique('Undo create');
    const made = await callOkIn(context, 'create-category', { name, description: 'd' });
    const [entry] = await journal.entries();
    expect(entry).toMatchObject({
      tool: 'create-category',
      reversible: true,
      summary: `created category ${made.id} '${name}'`,
    });
    const report = await undoChange(context, journal);
    expect(report).toMatchObject({ change_id: entry!.change_id, conflicts: [] });
    expect(report.restored).toEqual([`category ${made.id} '${name}' (deleted)`]);
    expect(await readTerm('categories', made.id)).toBeUndefined();
    await expect(undoChange(context, journal, { change_id: entry!.change_id })).rejects.toMatchObject({
      code: 'already_undone',
    });
  });

  it('create → undo refuses to delete a term posts use now, unless force', async () => {
    const { context, journal } = journalled();
    const made = await callOkIn(context, 'create-tag', { name: unique('Undo used') });
    await makePosts([{ tags: [made.id] }]);
    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([
      { item: expect.stringContaining(`tag ${made.id}`), reason: expect.stringContaining('used by 1 post') },
    ]);
    expect(report.undo_change_id).toBeUndefined();
    expect(await readTerm('tags', made.id)).toBeDefined();
    const forced = await undoChange(context, journal, { force: true });
    expect(forced.restored).toHaveLength(1);
    expect(await readTerm('tags', made.id)).toBeUndefined();
  });

  it('update-category → undo restores name, slug, description and parent; redo applies it again', async () => {
    const { context, journal } = journalled();
    const parent = await makeCategory('Undo parent');
    const cat = await makeCategory('Undo upd');
    const before = await readTerm('categories', cat.id);
    await callOkIn(context, 'update-category', {
      id: cat.id,
      name: unique('Renamed'),
      slug: unique('renamed').replace(/ /g, '-'),
      description: 'new',
      parent: parent.id,
    });
    const changed = await readTerm('categories', cat.id);
    const report = await undoChange(context, journal);
    expect(report.restored).toEqual([`category ${cat.id} '${cat.name}'`]);
    const after = await readTerm('categories', cat.id);
    expect(pick(after)).toEqual(pick(before));
    const redo = await undoChange(context, journal, { change_id: report.undo_change_id });
    expect(redo.restored).toHaveLength(1);
    expect(pick(await readTerm('categories', cat.id))).toEqual(pick(changed));
  });

  it('a rename after the recorded write is a conflict: the newer name stays, unless force', async () => {
    const { context, journal } = journalled();
    const cat = await makeCategory('Undo conflict');
    const first = unique('First');
    await callOkIn(context, 'update-category', { id: cat.id, name: first });
    const newer = unique('Newer');
    await wp().post(`/wp/v2/categories/${cat.id}`, { name: newer });
    const report = await undoChange(context, journal);
    expect(report.restored).toEqual([]);
    expect(report.conflicts).toEqual([
      { item: `category ${cat.id} '${cat.name}'`, reason: expect.stringContaining(newer) },
    ]);
    expect((await readTerm('categories', cat.id))?.name).toBe(newer);
    const dry = await undoChange(context, journal, { force: true, dry_run: true });
    expect(dry).toMatchObject({ dry_run: true, restored: [expect.stringContaining('name')] });
    expect((await readTerm('categories', cat.id))?.name).toBe(newer);
    await undoChange(context, journal, { force: true });
    expect((await readTerm('categories', cat.id))?.name).toBe(cat.name);
  });

  it('delete-category with force → undo recreates it, gives every post back exactly its terms (default category taken off again) and moves children back', async () => {
    const { context, journal } = journalled();
    const grand = await makeCategory('Undo grand');
    const cat = await makeCategory('Undo del', grand.id);
    await wp().post(`/wp/v2/categories/${cat.id}`, { description: 'kept' });
    const kidA = await makeCategory('Undo kid', cat.id);
    const kidB = await makeCategory('Undo kid', cat.id);
    const other = await makeCategory('Undo other');
    // The first post has only this category: WordPress files it under the default one once it is gone.
    const posts = await makePosts([
      { categories: [cat.id] },
      { categories: [cat.id, other.id], status: 'draft' },
      { categories: [other.id] },
    ]);
    const before = await readTerm('categories', cat.id);
    await callOkIn(context, 'delete-category', { id: cat.id, force: true });
    expect((await readPosts(posts)).get(posts[0]!)?.categories).toEqual([1]);

    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    const recreated = await slugOwner('categories', before!.slug);
    expect(recreated.id).not.toBe(cat.id);
    expect(pick(recreated)).toEqual({ ...pick(before), parent: grand.id });
    expect((await readTerm('categories', kidA.id))?.parent).toBe(recreated.id);
    expect((await readTerm('categories', kidB.id))?.parent).toBe(recreated.id);
    const now = await readPosts(posts);
    expect(now.get(posts[0]!)?.categories).toEqual([recreated.id]);
    expect(now.get(posts[1]!)?.categories.sort()).toEqual([recreated.id, other.id].sort());
    expect(now.get(posts[2]!)?.categories).toEqual([other.id]);
    const [, undoEntry] = await journal.entries();
    expect(undoEntry).toMatchObject({ undoes: report.change_id, after: { id_map: { [cat.id]: recreated.id } } });
  });

  it('a term recreated by an undo is found under its new id by older entries (create, then delete, undo both)', async () => {
    const { context, journal } = journalled();
    const made = await callOkIn(context, 'create-tag', { name: unique('Undo chain') });
    const posts = await makePosts([{ tags: [made.id] }]);
    await callOkIn(context, 'delete-tag', { id: made.id, force: true });
    await undoChange(context, journal); // recreates it with a new id, on the post again
    const again = await slugOwner('tags', made.slug);
    expect((await readPosts(posts)).get(posts[0]!)?.tags).toEqual([again.id]);
    // Undo the create: the recreated tag is the one deleted, after the post lost it by hand.
    await wp().post(`/wp/v2/posts/${posts[0]}`, { tags: [] });
    const report = await undoChange(context, journal);
    expect(report.restored).toEqual([expect.stringContaining(`tag ${again.id}`)]);
    expect(await readTerm('tags', again.id)).toBeUndefined();
  });

  it('update-tag and assign-categories-to-posts → undo --last 2 gives both back', async () => {
    const { context, journal } = journalled();
    const [tag, cat] = [await makeTag('Undo upd tag'), await makeCategory('Undo assign cat')];
    const posts = await makePosts([{ categories: [1] }, { categories: [cat.id] }]);
    const tagBefore = pick(await readTerm('tags', tag.id));
    const postsBefore = await readPosts(posts);
    await callOkIn(context, 'update-tag', { id: tag.id, name: unique('Undo tag renamed'), description: 'x' });
    await callOkIn(context, 'assign-categories-to-posts', { post_ids: posts, category_ids: [cat.id] });
    const reports = await undoLast(context, journal, 2);
    expect(reports.map((r) => r.conflicts)).toEqual([[], []]);
    expect(pick(await readTerm('tags', tag.id))).toEqual(tagBefore);
    const now = await readPosts(posts);
    for (const id of posts) expect(now.get(id)?.categories).toEqual(postsBefore.get(id)?.categories);
  });

  it('an undo cut short runs again and finishes what is left, restoring nothing twice', async () => {
    const { context, journal } = journalled();
    const tag = await makeTag('Undo rerun');
    const posts = await makePosts([{ tags: [tag.id] }, { tags: [tag.id] }]);
    await callOkIn(context, 'delete-tag', { id: tag.id, force: true });
    // As if a first run had recreated the tag and given it to the first post, then stopped.
    const made = await wp().post<{ id: number }>('/wp/v2/tags', {
      name: tag.name,
      slug: tagSlug(await journal.entries()),
    });
    await wp().post(`/wp/v2/posts/${posts[0]}`, { tags: [made.id] });
    const report = await undoChange(context, journal);
    expect(report.conflicts).toEqual([]);
    expect(report.restored).toEqual([`post ${posts[1]}`]);
    expect(report.skipped).toEqual([expect.stringContaining(`(already recreated as ${made.id})`), `post ${posts[0]}`]);
    const now = await readPosts(posts);
    expect([now.get(posts[0]!)?.tags, now.get(posts[1]!)?.tags]).toEqual([[made.id], [made.id]]);
  });
});

function tagSlug(entries: Array<{ before: unknown }>): string {
  const terms = (entries[0]!.before as { terms: Record<string, { slug: string }> }).terms;
  return Object.values(terms)[0]!.slug;
}

function pick(term: Record<string, any> | undefined) {
  return term && { name: term.name, slug: term.slug, description: term.description, parent: term.parent };
}
