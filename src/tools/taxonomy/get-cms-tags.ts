import { z } from 'zod';
import { pagingParams } from '../answers/page.js';
import { text } from '../schema.js';
import { termListTool } from './term-tools.js';
import { TAG } from './terms.js';

export const getCmsTags = termListTool({
  name: 'get-cms-tags',
  description: 'Tags by id: {total, items, next_cursor}; more via cursor=next_cursor.',
  kind: TAG,
  schema: z.strictObject({
    search: text().optional().describe('In name or slug'),
    hide_empty: z.boolean().optional().describe('Skip unused'),
    full: z.boolean().optional().describe('Add description'),
    ...pagingParams,
  }),
  narrowWith: 'search',
});
