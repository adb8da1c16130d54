import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { termOutput } from '../output-schemas.js';
import { termName, wpId } from '../schema.js';
import { updateTerm } from './term-writes.js';
import { TAG } from './terms.js';
import { previewUpdateTerm } from './previews.js';

export const updateTag = defineTool({
  name: 'update-tag',
  toolkit: 'taxonomy',
  description: "Change a tag's name and/or description; returns it.",
  schema: z.strictObject({
    id: wpId(),
    name: termName().optional().describe('New name'),
    description: z.string().optional().describe('New description; "" clears it'),
  }),
  outputSchema: termOutput,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  preview: ({ client }, { id, ...changes }) => previewUpdateTerm(client, TAG, id, changes),
  execute: ({ client }, { id, ...changes }) => updateTerm(client, TAG, id, changes),
});
