import { z } from 'zod';
import { pagingParams } from '../answers/page.js';
import { text } from '../schema.js';
import { termListTool } from './term-tools.js';
import { TAG } from './terms.js';

export const getCmsTags = termListTool({
  name: 'get-cms-tags',
  description: 'Tags by id; count = published posts.',
  kind: TAG,
  schema: () => z.strictObject({
    search: text().optional(),
    hide_empty: z.boolean().optional(),
    full: z.boolean().optional().describe('Add description, meta'),
    ...pagingParams,
  }),
  narrowWith: 'search',
});
