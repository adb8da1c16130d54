import { expect, it } from 'vitest';
import { z } from 'zod';
import { createContext } from '../../src/config.js';
import { approveAll, callTool, defineTool, ToolError } from '../../src/call/index.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { callIn, testSite, unique, wp } from '../helpers/site.js';
import { makeCategory } from './taxonomy/fixtures.js';

/** A write tool that renames a category, then fails: as a merge that moved posts and then stopped. */
const failsAfterWriting = defineTool({
  name: 'rename-then-fail',
  toolkit: 'taxonomy',
  description: 'Test tool.',
  schema: z.strictObject({ id: z.number(), name: z.string() }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  undo: {
    scope: async (_context, params) => ({
      taxonomy: {
        taxonomy: 'category',
        route: '/wp/v2/categories',
        postsParam: 'categories',
        noun: 'category',
        hierarchical: true,
      },
      terms: [params.id],
    }),
    summary: () => 'renamed',
  },
  async execute({ client }, params) {
    await client.post(`/wp/v2/categories/${params.id}`, { name: params.name });
    throw new ToolError('stopped_midway', 'Stopped after the rename.');
  },
});

it('a call that failed after writing part is journalled, and can be undone; one that wrote nothing is not', async () => {
  const journal = memoryJournal();
  const context = createContext(testSite(), { journal });
  const cat = await makeCategory('Undo partial');
  const outcome = await callTool({ tool: failsAfterWriting, params: { id: cat.id, name: unique('Partial') } }, context, {}, approveAll);
  expect(outcome).toMatchObject({ ok: false, error: { code: 'stopped_midway' } });
  const [entry] = await journal.entries();
  expect(entry).toMatchObject({
    tool: 'rename-then-fail',
    reversible: true,
    summary: 'rename-then-fail failed (stopped_midway) after changing part: 1 object(s)',
  });
  // The engine journals its undo under what ran it (the undo-change tool passes its own name).
  await undoChange(context, journal, { recordAs: 'undo-change' });
  expect((await wp().get<{ name: string }>(`/wp/v2/categories/${cat.id}`)).name).toBe(cat.name);

  const used = await makeCategory('Undo in use');
  await wp().post('/wp/v2/posts', { title: unique('p'), status: 'publish', categories: [used.id] });
  expect(await callIn(context, 'delete-category', { id: used.id })).toMatchObject({
    ok: false,
    error: { code: 'term_in_use' },
  });
  expect((await journal.entries()).map((e) => e.tool)).toEqual(['rename-then-fail', 'undo-change']);
});
