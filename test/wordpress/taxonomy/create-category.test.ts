import { describe, expect, it } from 'vitest';
import { call, callOk, unique, wp } from '../../helpers/site.js';
import { makeCategory, readTerm } from './fixtures.js';

describe('create-category', () => {
  it('creates a top-level category and returns the compact record', async () => {
    const name = unique('Travel & Food');
    const created = await callOk('create-category', { name });
    expect(Object.keys(created).sort()).toEqual(['count', 'description', 'id', 'name', 'parent', 'slug']);
    expect(created).toMatchObject({ name, parent: 0, count: 0 });
    const stored = await readTerm('categories', created.id);
    expect(stored).toMatchObject({ id: created.id, parent: 0, slug: created.slug });
  });

  it('creates a child of an existing category', async () => {
    const parent = await makeCategory('Parent');
    const created = await callOk('create-category', { name: unique('Child'), parent: parent.id });
    expect(created.parent).toBe(parent.id);
    expect((await readTerm('categories', created.id))?.parent).toBe(parent.id);
  });

  it('a duplicate name fails with term_exists and the existing id', async () => {
    const existing = await makeCategory('Dup');
    const outcome = await call('create-category', { name: existing.name });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'term_exists', details: { existing_id: existing.id } } });
    if (!outcome.ok) expect(outcome.error.hint).toContain(`id ${existing.id}`);
    expect(await wp().count('/wp/v2/categories', { search: existing.name, hide_empty: false })).toBe(1);
  });

  it('the same name under another parent is allowed, as in WordPress', async () => {
    const existing = await makeCategory('Shared');
    const parent = await makeCategory('Other parent');
    const created = await callOk('create-category', { name: existing.name, parent: parent.id });
    expect(created.id).not.toBe(existing.id);
    expect(created.parent).toBe(parent.id);
  });

  it('a parent that does not exist is refused and nothing is created', async () => {
    const name = unique('Orphan');
    const outcome = await call('create-category', { name, parent: 999_999 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'parent_not_found' } });
    if (!outcome.ok) expect(outcome.error.message).toContain('999999');
    expect(await wp().count('/wp/v2/categories', { search: name, hide_empty: false })).toBe(0);
  });

  it('rejects an empty name and unknown params before calling WordPress', async () => {
    expect(await call('create-category', { name: '  ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(await call('create-category', { name: 'x', color: 'red' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });
});
