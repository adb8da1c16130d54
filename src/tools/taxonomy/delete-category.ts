import { z } from 'zod';
import { wpId } from '../schema.js';
import { termDeleteTool } from './term-tools.js';
import { CATEGORY } from './terms.js';

export const deleteCategory = termDeleteTool({
  name: 'delete-category',
  description: 'Delete a category permanently; its children move to its parent.',
  kind: CATEGORY,
  schema: () => z.strictObject({
    id: wpId(),
    force: z.boolean().optional().describe('Even if posts use it'),
  }),
});
