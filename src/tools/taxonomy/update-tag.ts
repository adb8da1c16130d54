import { z } from 'zod';
import { termName, termSlug, wpId } from '../schema.js';
import { termUpdateTool } from './term-tools.js';
import { TAG } from './terms.js';

export const updateTag = termUpdateTool({
  name: 'update-tag',
  description: "Change a tag's name, slug or description; returns it.",
  kind: TAG,
  schema: z.strictObject({
    id: wpId(),
    name: termName().optional().describe('New name'),
    description: z.string().optional().describe('New description; "" clears it'),
    slug: termSlug(),
  }),
});
