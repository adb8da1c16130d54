import { z } from 'zod';
import { wpIds } from '../schema.js';
import { termAssignTool } from './post-term-tools.js';
import { TAG } from './terms.js';

export const assignTagsToPosts = termAssignTool({
  name: 'assign-tags-to-posts',
  description: 'Add tags to posts, keeping existing ones. Returns counts, id ranges and failures.',
  kind: TAG,
  termsParam: 'tag_ids',
  schema: z.strictObject({
    post_ids: wpIds().describe('Post ids'),
    tag_ids: wpIds().describe('Tag ids'),
  }),
});
