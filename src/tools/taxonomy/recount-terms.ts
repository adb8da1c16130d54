import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { requireCompanion } from '../companion.js';
import { taxonomySlug, wpIds } from '../schema.js';
import { recountOutput } from '../output-schemas.js';
import { recountRoute } from './cleanup-routes.js';
import { resolveTaxonomy } from './taxonomies.js';

const SHOWN = 100;

/**
 * `wp term recount` over REST: the companion plugin runs wp_update_term_count_now() on the
 * terms and answers which stored counts changed. Journalled, not undone: the counts it
 * replaces were wrong, and an undo would only write them back.
 */
export const recountTerms = defineTool({
  name: 'recount-terms',
  toolkit: 'taxonomy',
  description: "Recompute WordPress's stored term counts; returns which changed, from → to.",
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    term_ids: wpIds().max(5000).optional().describe('Default: every term'),
  }),
  outputSchema: recountOutput,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  undo: {
    irreversible: () => 'a recount writes the counts the site has; putting the old (wrong) ones back is not offered',
    summary: (params, result: { changed_count?: number }) =>
      `recounted ${params.taxonomy} (${result.changed_count ?? 0} count(s) changed)`,
  },
  async execute({ client }, params) {
    const kind = await resolveTaxonomy(client, params.taxonomy);
    await requireCompanion(client, 'recount-terms', 'terms/recount');
    const { checked, changed } = await recountRoute(client, kind.taxonomy, params.term_ids);
    return {
      taxonomy: kind.taxonomy,
      checked,
      changed_count: changed.length,
      changed: changed.slice(0, SHOWN),
      ...(changed.length > SHOWN ? { more: `${changed.length - SHOWN} more changed, not listed` } : {}),
    };
  },
});
