import { describe, expect, it } from 'vitest';
import { call, callOk, unique, wp } from '../../helpers/site.js';
import { makeTag, readTerm } from './fixtures.js';

describe('create-tag', () => {
  it('creates a tag with a description; names come back unescaped', async () => {
    const name = unique('Rock & Roll');
    const created = await callOk('create-tag', { name, description: 'Loud music' });
    expect(Object.keys(created).sort()).toEqual(['count', 'description', 'id', 'name', 'slug']);
    expect(created).toMatchObject({ name, description: 'Loud music', count: 0 });
    const stored = await readTerm('tags', created.id);
    expect(stored).toMatchObject({ description: 'Loud music', name: name.replace('&', '&amp;') });
  });

  it('a duplicate name (any case) fails with term_exists and the existing id', async () => {
    const existing = await makeTag('Dup');
    const outcome = await call('create-tag', { name: existing.name.toUpperCase() });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'term_exists', details: { existing_id: existing.id } } });
    if (!outcome.ok) expect(outcome.error.hint).toBe(`Use id ${existing.id} or choose another name.`);
    expect(await wp().count('/wp/v2/tags', { search: existing.name, hide_empty: false })).toBe(1);
  });

  it('tags have no parent', async () => {
    expect(await call('create-tag', { name: unique('T'), parent: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });
});
