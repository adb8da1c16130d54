import { describe, expect, it } from 'vitest';
import { call, callOk, unique, wp } from '../../helpers/site.js';
import { makeCategory, readTerm } from './fixtures.js';

describe('update-category', () => {
  it('renames only: parent, slug and description stay', async () => {
    const parent = await makeCategory('P');
    const cat = await wp().post<{ id: number; slug: string }>('/wp/v2/categories', {
      name: unique('Old'),
      parent: parent.id,
      description: 'keep me',
    });
    const name = unique('New & improved');
    const updated = await callOk('update-category', { id: cat.id, name });
    expect(updated).toMatchObject({ id: cat.id, name, parent: parent.id, description: 'keep me' });
    expect(await readTerm('categories', cat.id)).toMatchObject({
      parent: parent.id,
      description: 'keep me',
      slug: cat.slug,
    });
  });

  it('moves only: the name stays; 0 moves to top level', async () => {
    const cat = await makeCategory('Mover');
    const parent = await makeCategory('Dest');
    expect(await callOk('update-category', { id: cat.id, parent: parent.id })).toMatchObject({
      name: cat.name,
      parent: parent.id,
    });
    expect(await readTerm('categories', cat.id)).toMatchObject({ name: cat.name, parent: parent.id });
    await callOk('update-category', { id: cat.id, parent: 0 });
    expect((await readTerm('categories', cat.id))?.parent).toBe(0);
  });

  it('no field to change is an error', async () => {
    const cat = await makeCategory('Idle');
    expect(await call('update-category', { id: cat.id })).toMatchObject({ ok: false, error: { code: 'no_changes' } });
  });

  it('renaming onto an existing name is refused with the existing id (WordPress would allow it)', async () => {
    const a = await makeCategory('Taken');
    const b = await makeCategory('Other');
    const outcome = await call('update-category', { id: b.id, name: a.name.toLowerCase() });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'term_exists', details: { existing_id: a.id } } });
    expect((await readTerm('categories', b.id))?.name).toBe(b.name);
  });

  it('refuses to make a category its own parent', async () => {
    const cat = await makeCategory('Self');
    const outcome = await call('update-category', { id: cat.id, parent: cat.id });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'parent_cycle' } });
    expect((await readTerm('categories', cat.id))?.parent).toBe(0);
  });

  it('refuses to make a category the child of its own descendant; nothing is written', async () => {
    const root = await makeCategory('Root');
    const child = await makeCategory('Child', root.id);
    const grandchild = await makeCategory('Grandchild', child.id);
    const outcome = await call('update-category', { id: root.id, name: unique('Renamed'), parent: grandchild.id });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'parent_cycle' } });
    expect(await readTerm('categories', root.id)).toMatchObject({ name: root.name, parent: 0 });
    expect((await readTerm('categories', grandchild.id))?.parent).toBe(child.id);
  });

  it('a missing parent or id is a clear not-found error', async () => {
    const cat = await makeCategory('Lonely');
    expect(await call('update-category', { id: cat.id, parent: 999_999 })).toMatchObject({
      ok: false,
      error: { code: 'parent_not_found' },
    });
    const outcome = await call('update-category', { id: 999_999, name: unique('Ghost') });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'category_not_found' } });
    if (!outcome.ok) expect(outcome.error.hint).toContain('get-cms-categories');
  });
});
