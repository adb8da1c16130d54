import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, pagingParams } from '../answers/page.js';
import { text, wpId, wpIds } from '../schema.js';
import { postSource } from './post-search.js';

export const findPosts = defineTool({
  name: 'find-posts',
  toolkit: 'taxonomy',
  description: 'Posts of any type matching all filters, newest first: {total, items, next_cursor}.',
  schema: z.strictObject({
    search: text().optional().describe('Words in title or content'),
    post_type: text(20).optional().describe('post (default), page, product…'),
    status: text(20).optional().describe('One status, or any (incl. trash); default all but trash'),
    taxonomy: text(32).optional().describe('Taxonomy slug, for term_ids or no_terms'),
    term_ids: wpIds().optional().describe('Has any of these terms'),
    no_terms: z.boolean().optional().describe('Has no term of taxonomy'),
    author: wpId().optional().describe('User id'),
    after: text(40).optional().describe('ISO 8601'),
    before: text(40).optional().describe('ISO 8601'),
    ...pagingParams,
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor, ...filters }) {
    return listPage(context, await postSource(context.client, filters), {
      tool: 'find-posts',
      filters,
      limit,
      cursor,
      defaultLimit: 50,
      narrowWith: 'search, status, taxonomy or dates',
    });
  },
});
