import { z } from 'zod';
import { wpIds } from '../schema.js';
import { termAssignTool } from './post-term-tools.js';
import { TAG } from './terms.js';

export const assignTagsToPosts = termAssignTool({
  name: 'assign-tags-to-posts',
  description: 'Add tags to posts, keeping their others.',
  kind: TAG,
  termsParam: 'tag_ids',
  schema: () => z.strictObject({
    post_ids: wpIds(),
    tag_ids: wpIds(),
  }),
});
