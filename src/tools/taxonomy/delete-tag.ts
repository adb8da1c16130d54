import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { deletedTermOutput } from '../output-schemas.js';
import { wpId } from '../schema.js';
import { reviewDelete } from './reviews.js';
import { deleteTerm } from './term-writes.js';
import { TAG } from './terms.js';

export const deleteTag = defineTool({
  name: 'delete-tag',
  toolkit: 'taxonomy',
  description: 'Delete a tag permanently.',
  schema: z.strictObject({
    id: wpId(),
    force: z.boolean().optional().describe('Delete even if posts use it'),
  }),
  outputSchema: deletedTermOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  review: ({ client }, { id, force }) => reviewDelete(client, TAG, id, force),
  execute: ({ client }, { id, force }) => deleteTerm(client, TAG, id, force ?? false),
});
