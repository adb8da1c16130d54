import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { CATEGORY_FIELDS, toCategory } from './records.js';

export const getCmsCategories = defineTool({
  name: 'get-cms-categories',
  toolkit: 'taxonomy',
  description:
    'List every category of the WordPress site (all pages). Returns {total, items:[{id,name,slug,parent,description,count}]}; parent 0 = top level; count = published posts.',
  schema: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }) {
    const raw = await client.all<Record<string, unknown>>('/wp/v2/categories', {
      _fields: CATEGORY_FIELDS,
      orderby: 'id',
      hide_empty: false,
    });
    const items = raw.map(toCategory);
    return { total: items.length, items };
  },
});
