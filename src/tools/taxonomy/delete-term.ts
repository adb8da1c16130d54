import { z } from 'zod';
import { taxonomySlug, wpId } from '../schema.js';
import { termDeleteTool } from './term-tools.js';

export const deleteTerm = termDeleteTool({
  name: 'delete-term',
  description: 'Delete a term permanently; children move to its parent.',
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    id: wpId(),
    force: z.boolean().optional().describe('Even if posts use it'),
  }),
});
