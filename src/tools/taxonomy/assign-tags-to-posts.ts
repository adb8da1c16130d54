import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { assignOutput } from '../output-schemas.js';
import { withPostTermsLock } from './post-lock.js';
import { assignTerms } from './assign.js';
import { wpIds } from '../schema.js';
import { bulkAnswer } from '../answers/bulk.js';
import { TAG } from './terms.js';
import { previewAddTerms } from './previews.js';

export const assignTagsToPosts = defineTool({
  name: 'assign-tags-to-posts',
  toolkit: 'taxonomy',
  description: 'Add tags to posts, keeping existing ones. Returns counts, id ranges and failures.',
  schema: z.strictObject({
    post_ids: wpIds().describe('Post ids'),
    tag_ids: wpIds().describe('Tag ids'),
  }),
  outputSchema: assignOutput,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  answer: bulkAnswer,
  preview: ({ client }, params) => previewAddTerms(client, TAG, params.post_ids, params.tag_ids),
  execute: ({ client }, params) =>
    withPostTermsLock(client, () => assignTerms(client, TAG, params.post_ids, params.tag_ids)),
});
