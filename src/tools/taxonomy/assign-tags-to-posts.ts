import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { withPostTermsLock } from './post-lock.js';
import { assignTerms } from './assign.js';
import { wpIds } from '../schema.js';
import { TAG } from './terms.js';

export const assignTagsToPosts = defineTool({
  name: 'assign-tags-to-posts',
  toolkit: 'taxonomy',
  description: 'Add tags to posts, keeping existing ones. Returns {updated, unchanged, failed} post ids.',
  schema: z.strictObject({
    post_ids: wpIds().describe('Post ids'),
    tag_ids: wpIds().describe('Tag ids'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: ({ client }, params) =>
    withPostTermsLock(client, () => assignTerms(client, TAG, params.post_ids, params.tag_ids)),
});
