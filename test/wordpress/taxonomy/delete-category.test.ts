import { describe, expect, it } from 'vitest';
import { call, callOk } from '../../helpers/site.js';
import { makeCategory, makePosts, readPost, readTerm } from './fixtures.js';

describe('delete-category', () => {
  it('refuses a category used only by a draft (count says 0), then deletes it with force', async () => {
    const cat = await makeCategory('Drafty');
    const other = await makeCategory('Stays');
    const [postId] = (await makePosts([{ status: 'draft', categories: [cat.id, other.id] }])) as [number];
    expect((await readTerm('categories', cat.id))?.count).toBe(0);

    const refused = await call('delete-category', { id: cat.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'term_in_use', details: { posts: 1 } } });
    if (!refused.ok) expect(refused.error.hint).toContain('force: true');
    expect(await readTerm('categories', cat.id)).toBeDefined();

    const result = await callOk('delete-category', { id: cat.id, force: true });
    expect(result).toEqual({ deleted: { id: cat.id, name: cat.name }, children_reparented: [], posts_affected: 1 });
    expect(await readTerm('categories', cat.id)).toBeUndefined();
    expect((await readPost(postId)).categories).toEqual([other.id]);
  });

  it('deletes an unused category without force', async () => {
    const cat = await makeCategory('Unused');
    expect(await callOk('delete-category', { id: cat.id })).toMatchObject({ posts_affected: 0 });
    expect(await readTerm('categories', cat.id)).toBeUndefined();
  });

  it('reports the children WordPress moves to the deleted category’s parent', async () => {
    const grand = await makeCategory('Grand');
    const middle = await makeCategory('Middle', grand.id);
    const a = await makeCategory('Kid A', middle.id);
    const b = await makeCategory('Kid B', middle.id);
    const result = await callOk('delete-category', { id: middle.id });
    expect(result.children_reparented).toEqual([
      { id: a.id, name: a.name, new_parent: grand.id },
      { id: b.id, name: b.name, new_parent: grand.id },
    ]);
    expect((await readTerm('categories', a.id))?.parent).toBe(grand.id);
    expect((await readTerm('categories', b.id))?.parent).toBe(grand.id);
  });

  it('refuses the default category, even with force', async () => {
    const outcome = await call('delete-category', { id: 1, force: true });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'cannot_delete_default_category' } });
    expect(await readTerm('categories', 1)).toBeDefined();
  });

  it('an unknown id is a not-found error', async () => {
    expect(await call('delete-category', { id: 999_999 })).toMatchObject({
      ok: false,
      error: { code: 'category_not_found' },
    });
  });
});
