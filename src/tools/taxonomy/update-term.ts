import { z } from 'zod';
import { parentId, taxonomySlug, termName, termSlug, wpId } from '../schema.js';
import { termUpdateTool } from './term-tools.js';

export const updateTerm = termUpdateTool({
  name: 'update-term',
  description: "Change a term; returns it.",
  schema: z.strictObject({
    taxonomy: taxonomySlug(),
    id: wpId(),
    name: termName().optional().describe('New name'),
    slug: termSlug(),
    parent: parentId().optional().describe('New parent id; 0 = top level'),
    description: z.string().optional().describe('New description'),
  }),
});
