import { z } from 'zod';
import { taxonomySlug, wpIds } from '../schema.js';
import { termAssignTool } from './post-term-tools.js';

export const assignTermsToPosts = termAssignTool({
  name: 'assign-terms-to-posts',
  description: 'Add terms to posts, keeping their others.',
  termsParam: 'term_ids',
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    post_ids: wpIds(),
    term_ids: wpIds(),
  }),
});
