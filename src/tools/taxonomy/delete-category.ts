import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { deletedTermOutput } from '../output-schemas.js';
import { wpId } from '../schema.js';
import { reviewDelete } from './reviews.js';
import { deleteTerm } from './term-writes.js';
import { CATEGORY } from './terms.js';

export const deleteCategory = defineTool({
  name: 'delete-category',
  toolkit: 'taxonomy',
  description: 'Delete a category permanently; its children move to its parent.',
  schema: z.strictObject({
    id: wpId(),
    force: z.boolean().optional().describe('Delete even if posts use it'),
  }),
  outputSchema: deletedTermOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  review: ({ client }, { id, force }) => reviewDelete(client, CATEGORY, id, force),
  execute: ({ client }, { id, force }) => deleteTerm(client, CATEGORY, id, force ?? false),
});
