import { z } from 'zod';
import { parentId, taxonomySlug, termName, termSlug } from '../schema.js';
import { termMetaParam } from './term-meta.js';
import { termCreateTool } from './term-tools.js';

export const createTerm = termCreateTool({
  name: 'create-term',
  description: 'Create a term.',
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    name: termName(),
    slug: termSlug(),
    parent: parentId().optional().describe('0 = top level'),
    description: z.string().optional(),
    meta: termMetaParam(),
  }),
});
