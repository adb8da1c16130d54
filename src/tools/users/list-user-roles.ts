import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, matches, memorySource, pagingParams } from '../answers/page.js';
import { text } from '../schema.js';
import { loadRoles } from './roles.js';
import { grouped } from './capability-words.js';

export const listUserRoles = defineTool({
  name: 'list-user-roles',
  toolkit: 'users',
  description:
    'Roles with capabilities and users_count, by slug.',
  schema: () => z.strictObject({
    search: text().optional().describe('Role slug or name'),
    capabilities: z.boolean().optional().describe('Grouped: content, taxonomy, users, settings, code'),
    ...pagingParams,
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor, search, capabilities: byGroup }) {
    const { source, items, note } = await loadRoles(context.client);
    const found = items
      .filter((role) => matches(search, role.role, role.name))
      .map(({ role, name, capabilities, users_count }) => ({
        role,
        name,
        capabilities: byGroup ? grouped(capabilities) : capabilities,
        // The plugin counts each role's accounts (0.6.0); older, or without it, unknown.
        ...(typeof users_count === 'number' ? { users_count } : {}),
      }));
    const page = await listPage(
      context,
      memorySource(found, (role) => role.role),
      { tool: 'list-user-roles', filters: { search }, limit, cursor, defaultLimit: 100, narrowWith: 'search' },
      { source },
    );
    return note ? { ...page, note } : page;
  },
});
