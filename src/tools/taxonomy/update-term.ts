import { z } from 'zod';
import { parentId, taxonomySlug, termName, termSlug, wpId } from '../schema.js';
import { termMetaParam } from './term-meta.js';
import { termUpdateTool } from './term-tools.js';

export const updateTerm = termUpdateTool({
  name: 'update-term',
  description: "Change a term; returns it.",
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    id: wpId(),
    name: termName().optional(),
    slug: termSlug(),
    parent: parentId().optional().describe('0 = top level'),
    description: z.string().optional(),
    meta: termMetaParam(),
  }),
});
