import { z } from 'zod';
import { pagingParams } from '../answers/page.js';
import { parentId, text } from '../schema.js';
import { termListTool } from './term-tools.js';
import { CATEGORY } from './terms.js';

export const getCmsCategories = termListTool({
  name: 'get-cms-categories',
  description:
    'Categories by id: {total, items, next_cursor}; parent 0 = top level; count = published posts; more via cursor=next_cursor.',
  kind: CATEGORY,
  schema: z.strictObject({
    search: text().optional().describe('In name or slug'),
    parent: parentId().optional().describe('Children of (0 = top level)'),
    hide_empty: z.boolean().optional().describe('Skip unused'),
    full: z.boolean().optional().describe('Add description'),
    ...pagingParams,
  }),
  narrowWith: 'search or parent',
});
