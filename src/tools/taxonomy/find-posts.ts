import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, pagingParams } from '../answers/page.js';
import { text, wpId, wpIds } from '../schema.js';
import { postSource } from './post-search.js';

export const findPosts = defineTool({
  name: 'find-posts',
  toolkit: 'taxonomy',
  description: 'Posts of any type and status matching all filters, newest first.',
  schema: () => z.strictObject({
    search: text().optional().describe('In title or content'),
    post_type: text(20).optional().describe('Default post'),
    status: text(20).optional().describe('Or any (incl. trash)'),
    taxonomy: text(32).optional(),
    term_ids: wpIds().optional().describe('Any of these'),
    no_terms: z.boolean().optional().describe('None in taxonomy'),
    author: wpId().optional().describe('User id'),
    after: text(40).optional().describe('ISO 8601'),
    before: text(40).optional(),
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
