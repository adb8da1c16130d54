import { z } from 'zod';
import { pagingParams } from '../answers/page.js';
import { parentId, taxonomySlug, text } from '../schema.js';
import { termListTool } from './term-tools.js';

export const listTerms = termListTool({
  name: 'list-terms',
  description: 'Terms of a taxonomy by id; count = published posts.',
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    search: text().optional(),
    parent: parentId().optional().describe('0 = top level'),
    hide_empty: z.boolean().optional(),
    full: z.boolean().optional().describe('Add description, meta'),
    ...pagingParams,
  }),
  narrowWith: 'search or parent',
});
