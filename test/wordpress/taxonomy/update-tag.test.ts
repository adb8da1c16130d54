import { describe, expect, it } from 'vitest';
import { call, callOk, unique, wp } from '../../helpers/site.js';
import { makeTag, readTerm } from './fixtures.js';

describe('update-tag', () => {
  it('changes only the description; name and slug stay', async () => {
    const tag = await wp().post<{ id: number; name: string; slug: string }>('/wp/v2/tags', {
      name: unique('Desc'),
      description: 'old',
    });
    const updated = await callOk('update-tag', { id: tag.id, description: 'new text' });
    expect(updated).toMatchObject({ id: tag.id, name: tag.name, description: 'new text' });
    expect(await readTerm('tags', tag.id)).toMatchObject({ name: tag.name, slug: tag.slug, description: 'new text' });
  });

  it('renames only; the description stays; "" clears a description', async () => {
    const tag = await wp().post<{ id: number }>('/wp/v2/tags', { name: unique('Before'), description: 'kept' });
    const name = unique('After');
    expect(await callOk('update-tag', { id: tag.id, name })).toMatchObject({ name, description: 'kept' });
    expect(await readTerm('tags', tag.id)).toMatchObject({ name, description: 'kept' });
    await callOk('update-tag', { id: tag.id, description: '' });
    expect((await readTerm('tags', tag.id))?.description).toBe('');
  });

  it('no field to change, renaming onto an existing tag, an unknown id: clear errors', async () => {
    const a = await makeTag('Taken');
    const b = await makeTag('Free');
    expect(await call('update-tag', { id: b.id })).toMatchObject({ ok: false, error: { code: 'no_changes' } });
    expect(await call('update-tag', { id: b.id, name: a.name })).toMatchObject({
      ok: false,
      error: { code: 'term_exists', details: { existing_id: a.id } },
    });
    expect((await readTerm('tags', b.id))?.name).toBe(b.name);
    const outcome = await call('update-tag', { id: 999_999, description: 'x' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'tag_not_found' } });
    if (!outcome.ok) expect(outcome.error.hint).toContain('get-cms-tags');
  });
});
