import { z } from 'zod';
import { termName, termSlug, wpId } from '../schema.js';
import { termMetaParam } from './term-meta.js';
import { termUpdateTool } from './term-tools.js';
import { TAG } from './terms.js';

export const updateTag = termUpdateTool({
  name: 'update-tag',
  description: 'Change a tag; returns it.',
  kind: TAG,
  schema: () => z.strictObject({
    id: wpId(),
    name: termName().optional(),
    description: z.string().optional().describe('"" clears'),
    meta: termMetaParam(),
    slug: termSlug(),
  }),
});
