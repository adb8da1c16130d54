import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { termOutput } from '../output-schemas.js';
import { parentId, termName, wpId } from '../schema.js';
import { updateTerm } from './term-writes.js';
import { CATEGORY } from './terms.js';
import { previewUpdateTerm } from './previews.js';

export const updateCategory = defineTool({
  name: 'update-category',
  toolkit: 'taxonomy',
  description: "Change a category's name and/or parent; returns it.",
  schema: z.strictObject({
    id: wpId(),
    name: termName().optional().describe('New name'),
    parent: parentId().optional().describe('New parent id; 0 = top level'),
  }),
  outputSchema: termOutput,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  preview: ({ client }, { id, ...changes }) => previewUpdateTerm(client, CATEGORY, id, changes),
  execute: ({ client }, { id, ...changes }) => updateTerm(client, CATEGORY, id, changes),
});
