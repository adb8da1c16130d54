import { z } from 'zod';
import { taxonomySlug, wpIds } from '../schema.js';
import { termRemoveTool } from './post-term-tools.js';

export const removeTermsFromPosts = termRemoveTool({
  name: 'remove-terms-from-posts',
  description: 'Take terms off posts, keeping their others.',
  termsParam: 'term_ids',
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    post_ids: wpIds(),
    term_ids: wpIds(),
  }),
});
