import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { termOutput } from '../output-schemas.js';
import { termName } from '../schema.js';
import { createTerm } from './term-writes.js';
import { TAG } from './terms.js';
import { previewCreateTerm } from './previews.js';

export const createTag = defineTool({
  name: 'create-tag',
  toolkit: 'taxonomy',
  description: 'Create a tag; returns it. A duplicate name fails with existing_id.',
  schema: z.strictObject({
    name: termName().describe('Tag name'),
    description: z.string().optional().describe('Tag description'),
  }),
  outputSchema: termOutput,
  annotations: { readOnly: false, destructive: false, idempotent: false },
  preview: ({ client }, params) => previewCreateTerm(client, TAG, params),
  execute: ({ client }, params) => createTerm(client, TAG, params),
});
