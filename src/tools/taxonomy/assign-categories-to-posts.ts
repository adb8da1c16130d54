import { z } from 'zod';
import { wpIds } from '../schema.js';
import { termAssignTool } from './post-term-tools.js';
import { CATEGORY } from './terms.js';

export const assignCategoriesToPosts = termAssignTool({
  name: 'assign-categories-to-posts',
  description: 'Add categories to posts, keeping their others.',
  kind: CATEGORY,
  termsParam: 'category_ids',
  schema: () => z.strictObject({
    post_ids: wpIds(),
    category_ids: wpIds(),
  }),
});
