import { z } from 'zod';
import { defineTool, type ToolContext } from '../define-tool.js';
import { roleOutput } from '../output-schemas.js';
import { ToolError } from '../tool-error.js';
import { refusal } from '../refusals.js';
import { text } from '../schema.js';
import { applyCaps, type Caps, capsFrom, grantedOf, guardRoleChange, type RoleChange, reviewRoleChange } from './role-change.js';
import { capList, roleSlug } from './role-params.js';
import { needRoleRoutes, putRole, readRole } from './role-routes.js';

type Params = {
  slug: string;
  name: string;
  capabilities?: string[];
  deny_capabilities?: string[];
  clone_from?: string;
  add_capabilities?: string[];
  remove_capabilities?: string[];
};

/** The role to create, from its params and (for a clone) the source role on the site. */
async function plan({ client }: ToolContext, params: Params): Promise<RoleChange & { source?: string }> {
  await needRoleRoutes(client, 'Creating a role');
  if (!!params.capabilities === !!params.clone_from)
    throw new ToolError('invalid_params', 'Give either capabilities or clone_from (an existing role to copy), not both and not neither.', {
      hint: 'e.g. clone_from: "editor" with add_capabilities / remove_capabilities.',
    });
  if (await readRole(client, params.slug))
    throw refusal('role_exists', `The role ${params.slug} already exists. Nothing was changed.`);
  // Lists, granted and denied (strict tool schemas take no open map of capability → true/false); a clone keeps its source's denials.
  let base: Caps = capsFrom(params.capabilities);
  if (params.clone_from) {
    const source = await readRole(client, params.clone_from);
    if (!source)
      throw new ToolError('unknown_role', `There is no role "${params.clone_from}" to copy on this site.`, { hint: 'list-user-roles lists this site’s roles.' });
    base = source.capabilities;
  }
  const to = applyCaps(base, params.add_capabilities, params.remove_capabilities, params.deny_capabilities);
  return { slug: params.slug, name: params.name, from: null, to, users: 0, source: params.clone_from };
}

function words(change: RoleChange & { source?: string }, params: Params): string {
  const n = grantedOf(change.to).length;
  const no = denied(change.to ?? {}).denied ?? [];
  const denying = no.length ? `, denying ${no.join(', ')}` : '';
  const extra = [
    params.add_capabilities?.length ? `plus ${params.add_capabilities.join(', ')}` : '',
    params.remove_capabilities?.length ? `minus ${params.remove_capabilities.join(', ')}` : '',
  ].filter(Boolean);
  const from = change.source ? `, a copy of ${change.source}${extra.length ? ` ${extra.join(', ')}` : ''}` : '';
  return `create the role ${change.name} (${change.slug}) with ${n} capabilit${n === 1 ? 'y' : 'ies'}${denying}${from}`;
}

export const createRole = defineTool({
  name: 'create-role',
  toolkit: 'users',
  description: 'Create a role: capabilities, or clone_from one plus add/remove; deny_capabilities are set false.',
  schema: () => z.strictObject({
    slug: roleSlug(),
    name: text(200),
    capabilities: capList().optional(),
    deny_capabilities: capList().optional(),
    clone_from: roleSlug().optional(),
    add_capabilities: capList().optional(),
    remove_capabilities: capList().optional(),
  }),
  outputSchema: roleOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: {
    scope: async (_context, params) => ({ roles: [params.slug] }),
    summary: (params) => `created the role ${params.slug}${params.clone_from ? ` (a copy of ${params.clone_from})` : ''}`,
  },
  async review(context, params) {
    const change = await plan(context, params);
    await guardRoleChange(context.client, change);
    return reviewRoleChange(change, words(change, params));
  },
  async execute(context, params) {
    const change = await plan(context, params);
    await guardRoleChange(context.client, change);
    const made = await putRole(context.client, params.slug, { name: params.name, capabilities: change.to ?? {}, create: true });
    return { role: made.role, name: made.name, capabilities: grantedOf(made.capabilities), ...denied(made.capabilities), created: true };
  },
});

/** Capabilities the role denies (false), when it has any. */
export function denied(caps: Caps): { denied?: string[] } {
  const no = Object.keys(caps).filter((c) => caps[c] === false);
  return no.length ? { denied: no } : {};
}
