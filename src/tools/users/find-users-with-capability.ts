import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { inWords } from './capability-words.js';
import { capabilityHolders } from './role-change.js';
import { needRoleRoutes } from './role-routes.js';
import { capName } from './role-params.js';
import { typeOnly } from '../schema.js';

export const findUsersWithCapability = defineTool({
  name: 'find-users-with-capability',
  toolkit: 'users',
  description: 'Every account holding a capability, and through which role or grant.',
  schema: () => z.strictObject({
    capability: capName(),
    limit: z.number().int().min(1).max(500).meta(typeOnly).optional(),
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }, params) {
    await needRoleRoutes(client, 'Finding who holds a capability');
    const limit = Math.min(Math.max(params.limit ?? 100, 1), 500);
    const found = await capabilityHolders(client, params.capability, limit);
    const items = found.users.map(({ id, username, roles, through, can, disabled }) => ({
      id,
      username,
      roles,
      through,
      ...(can === false ? { blocked_by_site: true } : {}),
      ...(disabled ? { disabled: true } : {}),
    }));
    const blocked = items.length > 0 && items.every((u) => u.blocked_by_site);
    return {
      capability: inWords(params.capability),
      granted_by_roles: found.roles,
      total: found.total,
      items,
      next_cursor: null,
      ...(found.total > items.length ? { more: found.total - items.length, note: `Showing ${items.length} of ${found.total}; raise limit (up to 500).` } : {}),
      ...(found.total === 0 ? { note: 'No account holds it.' } : {}),
      ...(blocked ? { note: 'These accounts hold it, but the site takes it from everyone (wp-config.php: DISALLOW_FILE_MODS or DISALLOW_FILE_EDIT), so nobody can use it now.' } : {}),
    };
  },
});
