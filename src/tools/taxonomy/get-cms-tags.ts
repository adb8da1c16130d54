import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, pagingParams } from '../answers/page.js';
import { text } from '../schema.js';
import { TAG, termSource } from './terms.js';

export const getCmsTags = defineTool({
  name: 'get-cms-tags',
  toolkit: 'taxonomy',
  description: 'Tags by id: {total, items, next_cursor}; more via cursor=next_cursor.',
  schema: z.strictObject({
    search: text().optional().describe('In name or slug'),
    hide_empty: z.boolean().optional().describe('Skip unused'),
    full: z.boolean().optional().describe('Add description'),
    ...pagingParams,
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor, full, ...filters }) {
    return listPage(context, termSource(context.client, TAG, filters, full ?? false), {
      tool: 'get-cms-tags',
      filters,
      limit,
      cursor,
      defaultLimit: 100,
      narrowWith: 'search',
    });
  },
});
