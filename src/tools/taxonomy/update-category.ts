import { z } from 'zod';
import { parentId, termName, termSlug, wpId } from '../schema.js';
import { termMetaParam } from './term-meta.js';
import { termUpdateTool } from './term-tools.js';
import { CATEGORY } from './terms.js';

export const updateCategory = termUpdateTool({
  name: 'update-category',
  description: 'Change a category; returns it.',
  kind: CATEGORY,
  schema: () => z.strictObject({
    id: wpId(),
    name: termName().optional(),
    parent: parentId().optional().describe('0 = top level'),
    slug: termSlug(),
    description: z.string().optional(),
    meta: termMetaParam(),
  }),
});
