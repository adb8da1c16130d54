import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, pagingParams } from '../answers/page.js';
import { taxonomySlug } from '../schema.js';
import { duplicateSource } from './duplicate-terms.js';
import { resolveTaxonomy } from './taxonomies.js';

export const findDuplicateTerms = defineTool({
  name: 'find-duplicate-terms',
  toolkit: 'taxonomy',
  description:
    'Groups of terms whose names differ only by case, accents, spacing, punctuation or a plural s; target_id = most used. Merge each with merge-terms.',
  schema: () => z.strictObject({ taxonomy: taxonomySlug(), ...pagingParams }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, params) {
    const kind = await resolveTaxonomy(context.client, params.taxonomy);
    // Grouped by the site in one request a page (companion plugin 0.7.0), else read here (duplicate-terms.ts).
    const { source, extra } = await duplicateSource(context.client, kind);
    return listPage(context, source, {
      tool: 'find-duplicate-terms',
      filters: { taxonomy: kind.taxonomy },
      limit: params.limit,
      cursor: params.cursor,
      defaultLimit: 50,
      narrowWith: 'limit',
    }, { taxonomy: kind.taxonomy, ...extra() });
  },
});
