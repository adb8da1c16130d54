import { z } from 'zod';
import { termName, termSlug } from '../schema.js';
import { termMetaParam } from './term-meta.js';
import { termCreateTool } from './term-tools.js';
import { TAG } from './terms.js';

export const createTag = termCreateTool({
  name: 'create-tag',
  description: 'Create a tag.',
  kind: TAG,
  schema: () => z.strictObject({
    name: termName(),
    description: z.string().optional(),
    meta: termMetaParam(),
    slug: termSlug(),
  }),
});
