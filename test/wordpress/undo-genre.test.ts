import { expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoLast } from '../../src/undo/undo.js';
import { callOkIn, testSite, unique, wp } from '../helpers/site.js';
import { makePosts } from './taxonomy/fixtures.js';

/** The generic term tools on a custom taxonomy (genre, REST base `genres`): every write undone. */
async function genres(ids: number[]) {
  const posts = await wp().get<Array<{ id: number; genres: number[] }>>('/wp/v2/posts', {
    include: ids,
    context: 'edit',
    _fields: 'id,genres',
    status: ['publish', 'draft'],
  });
  return Object.fromEntries(posts.map((p) => [p.id, [...p.genres].sort()]));
}

async function allGenres() {
  const terms = await wp().all<{ id: number; name: string; slug: string; description: string; parent: number }>(
    '/wp/v2/genres',
    {
      hide_empty: false,
      context: 'edit',
      _fields: 'id,name,slug,description,parent',
    },
  );
  return terms
    .map(({ name, slug, description, parent }) => ({ name, slug, description, parent }))
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

it('create-term, update-term, assign-terms-to-posts, merge-terms (delete_sources), remove and delete-term on genre: undoing all gives the site back', async () => {
  const journal = memoryJournal();
  const context = createContext(testSite(), { journal });
  const old = await wp().post<{ id: number }>('/wp/v2/genres', { name: unique('Undo genre old'), description: 'kept' });
  const posts = await makePosts([{}, {}, {}]);
  await wp().post(`/wp/v2/posts/${posts[0]}`, { genres: [old.id] });
  const [termsBefore, postsBefore] = [await allGenres(), await genres(posts)];

  const a = await callOkIn(context, 'create-term', { taxonomy: 'genre', name: unique('Undo genre a') });
  const b = await callOkIn(context, 'create-term', { taxonomy: 'genre', name: unique('Undo genre b') });
  await callOkIn(context, 'update-term', {
    taxonomy: 'genre',
    id: old.id,
    name: unique('Undo genre renamed'),
    description: 'changed',
  });
  await callOkIn(context, 'assign-terms-to-posts', { taxonomy: 'genre', post_ids: posts, term_ids: [a.id] });
  await callOkIn(context, 'merge-terms', {
    taxonomy: 'genre',
    source_ids: [a.id, old.id],
    target_id: b.id,
    delete_sources: true,
  });
  await callOkIn(context, 'remove-terms-from-posts', { taxonomy: 'genre', post_ids: [posts[1]!], term_ids: [b.id] });
  await callOkIn(context, 'delete-term', { taxonomy: 'genre', id: b.id, force: true });

  const reports = await undoLast(context, journal, 7);
  expect(reports.flatMap((r) => r.conflicts)).toEqual([]);
  expect(await allGenres()).toEqual(termsBefore);
  const restored = await genres(posts);
  const [now] = await wp().get<Array<{ id: number }>>('/wp/v2/genres', {
    slug: termsBefore.find((t) => t.description === 'kept')!.slug,
  });
  expect(restored).toEqual({ ...postsBefore, [posts[0]!]: [now!.id] });
});
