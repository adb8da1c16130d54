import { z } from 'zod';
import { pagingParams } from '../answers/page.js';
import { parentId, text } from '../schema.js';
import { termListTool } from './term-tools.js';
import { CATEGORY } from './terms.js';

export const getCmsCategories = termListTool({
  name: 'get-cms-categories',
  description:
    'Categories by id; count = published posts. Where a term id goes, its slug works too (digits: an id).',
  kind: CATEGORY,
  schema: () => z.strictObject({
    search: text().optional(),
    parent: parentId().optional().describe('0 = top level'),
    hide_empty: z.boolean().optional(),
    full: z.boolean().optional().describe('Add description, meta'),
    ...pagingParams,
  }),
  narrowWith: 'search or parent',
});
