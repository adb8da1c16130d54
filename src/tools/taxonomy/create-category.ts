import { z } from 'zod';
import { parentId, termName, termSlug } from '../schema.js';
import { termMetaParam } from './term-meta.js';
import { termCreateTool } from './term-tools.js';
import { CATEGORY } from './terms.js';

export const createCategory = termCreateTool({
  name: 'create-category',
  description: 'Create a category.',
  kind: CATEGORY,
  schema: () => z.strictObject({
    name: termName(),
    parent: parentId().optional().describe('0 = top level'),
    slug: termSlug(),
    description: z.string().optional(),
    meta: termMetaParam(),
  }),
});
