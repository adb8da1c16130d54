import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, pagingParams } from '../answers/page.js';
import { parentId, text } from '../schema.js';
import { CATEGORY, termSource } from './terms.js';

export const getCmsCategories = defineTool({
  name: 'get-cms-categories',
  toolkit: 'taxonomy',
  description:
    'Categories by id: {total, items, next_cursor}; parent 0 = top level; count = published posts; more via cursor=next_cursor.',
  schema: z.strictObject({
    search: text().optional().describe('In name or slug'),
    parent: parentId().optional().describe('Children of (0 = top level)'),
    hide_empty: z.boolean().optional().describe('Skip unused'),
    full: z.boolean().optional().describe('Add description'),
    ...pagingParams,
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor, full, ...filters }) {
    return listPage(context, termSource(context.client, CATEGORY, filters, full ?? false), {
      tool: 'get-cms-categories',
      filters,
      limit,
      cursor,
      defaultLimit: 100,
      narrowWith: 'search or parent',
    });
  },
});
