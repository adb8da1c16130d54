import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { loadRoles } from './roles.js';

export const listUserRoles = defineTool({
  name: 'list-user-roles',
  toolkit: 'users',
  description: 'Roles and their granted capabilities as {source, total, items}.',
  schema: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }) {
    const { source, items, note } = await loadRoles(client);
    return note ? { source, total: items.length, items, note } : { source, total: items.length, items };
  },
});
