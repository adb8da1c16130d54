import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { CATEGORY, listTerms } from './terms.js';

export const getCmsCategories = defineTool({
  name: 'get-cms-categories',
  toolkit: 'taxonomy',
  description: 'All categories as {total, items}; parent 0 = top level; count = published posts.',
  schema: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }) {
    const items = await listTerms(client, CATEGORY);
    return { total: items.length, items };
  },
});
