import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listTerms, TAG } from './terms.js';

export const getCmsTags = defineTool({
  name: 'get-cms-tags',
  toolkit: 'taxonomy',
  description: 'All tags as {total, items}.',
  schema: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }) {
    const items = await listTerms(client, TAG);
    return { total: items.length, items };
  },
});
