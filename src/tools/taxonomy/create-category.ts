import { z } from 'zod';
import { parentId, termName, termSlug } from '../schema.js';
import { termCreateTool } from './term-tools.js';
import { CATEGORY } from './terms.js';

export const createCategory = termCreateTool({
  name: 'create-category',
  description: 'Create a category; returns it. A duplicate name fails with existing_id.',
  kind: CATEGORY,
  schema: z.strictObject({
    name: termName().describe('Category name'),
    parent: parentId().optional().describe('Parent category id; 0 = top level'),
    slug: termSlug(),
    description: z.string().optional().describe('Category description'),
  }),
});
