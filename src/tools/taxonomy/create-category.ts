import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { termOutput } from '../output-schemas.js';
import { parentId, termName } from '../schema.js';
import { createTerm } from './term-writes.js';
import { CATEGORY } from './terms.js';
import { previewCreateTerm } from './previews.js';

export const createCategory = defineTool({
  name: 'create-category',
  toolkit: 'taxonomy',
  description: 'Create a category; returns it. A duplicate name fails with existing_id.',
  schema: z.strictObject({
    name: termName().describe('Category name'),
    parent: parentId().optional().describe('Parent category id; 0 = top level'),
  }),
  outputSchema: termOutput,
  annotations: { readOnly: false, destructive: false, idempotent: false },
  preview: ({ client }, params) => previewCreateTerm(client, CATEGORY, params),
  execute: ({ client }, params) => createTerm(client, CATEGORY, params),
});
