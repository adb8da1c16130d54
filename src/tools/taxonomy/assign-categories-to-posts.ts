import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { assignOutput } from '../output-schemas.js';
import { withPostTermsLock } from './post-lock.js';
import { assignTerms } from './assign.js';
import { wpIds } from '../schema.js';
import { bulkAnswer } from '../answers/bulk.js';
import { CATEGORY } from './terms.js';
import { previewAddTerms } from './previews.js';

export const assignCategoriesToPosts = defineTool({
  name: 'assign-categories-to-posts',
  toolkit: 'taxonomy',
  description: 'Add categories to posts, keeping existing ones. Returns counts, id ranges and failures.',
  schema: z.strictObject({
    post_ids: wpIds().describe('Post ids'),
    category_ids: wpIds().describe('Category ids'),
  }),
  outputSchema: assignOutput,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  answer: bulkAnswer,
  preview: ({ client }, params) => previewAddTerms(client, CATEGORY, params.post_ids, params.category_ids),
  execute: ({ client }, params) =>
    withPostTermsLock(client, () => assignTerms(client, CATEGORY, params.post_ids, params.category_ids)),
});
