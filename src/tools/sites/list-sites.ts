import { z } from 'zod';
import { defineTool, type FleetSiteInfo } from '../define-tool.js';
import { toErrorPayload } from '../error-payload.js';
import { listOutput } from '../output-schemas.js';

/**
 * The sites of a session on several sites (issue #38): what every other tool's `site` param
 * takes. Offered only then (`fleet: true`); it runs once for the session, not per site, and
 * says no secret: name, address, groups, the account's username, and (with `check`) whether
 * the site answers that account now, or its error by name.
 */
export const listSites = defineTool({
  name: 'list-sites',
  toolkit: 'users',
  alsoIn: ['taxonomy'],
  fleet: true,
  description:
    'The sites of this session. Every other tool takes site: one name, "a,b", "@group" or "all"; answers are per site. A write on several sites asks one approval for all.',
  schema: () => z.strictObject({ check: z.boolean().optional().describe('Also log in to each') }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { check }) {
    const sites = context.fleet ?? [];
    const items = await Promise.all(sites.map((site) => describeSite(site, Boolean(check))));
    return { total: items.length, items, next_cursor: null };
  },
});

async function describeSite(site: FleetSiteInfo, check: boolean): Promise<Record<string, unknown>> {
  const line = { name: site.name, url: site.url, groups: site.groups, user: site.username };
  if (!check) return line;
  try {
    await site.client.connect();
    return { ...line, reachable: true };
  } catch (err) {
    const error = toErrorPayload(err);
    return { ...line, reachable: false, error: error ? `${error.code}: ${error.message}` : String(err) };
  }
}
