import { z } from 'zod';
import { wpId } from '../schema.js';
import { termDeleteTool } from './term-tools.js';
import { TAG } from './terms.js';

export const deleteTag = termDeleteTool({
  name: 'delete-tag',
  description: 'Delete a tag permanently.',
  kind: TAG,
  schema: () => z.strictObject({
    id: wpId(),
    force: z.boolean().optional().describe('Even if posts use it'),
  }),
});
