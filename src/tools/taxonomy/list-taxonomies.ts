import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { decodeEntities } from '../../client/index.js';
import { listPage, matches, memorySource, pagingParams } from '../answers/page.js';
import { text } from '../schema.js';

/**
 * REST does not expose `_builtin`. These are the taxonomies core registers in
 * create_initial_taxonomies() from WordPress 6.1 (the first seven) and 6.4 on
 * (`wp_pattern_category`, for synced patterns; the Gutenberg plugin registers it as built-in
 * on older versions too): https://github.com/WordPress/wordpress-develop/blob/trunk/src/wp-includes/taxonomy.php
 */
const CORE_TAXONOMIES = new Set([
  'category',
  'post_tag',
  'nav_menu',
  'link_category',
  'post_format',
  'wp_theme',
  'wp_template_part_area',
  'wp_pattern_category',
]);

interface RawTaxonomy {
  slug: string;
  name?: string;
  description?: string;
  hierarchical?: boolean;
  rest_base?: string;
  types?: string[];
}

export const listTaxonomies = defineTool({
  name: 'list-taxonomies',
  toolkit: 'taxonomy',
  description:
    'Taxonomies incl. custom, by slug.',
  schema: () => z.strictObject({
    search: text().optional().describe('In slug or name'),
    full: z.boolean().optional().describe('Add description, types'),
    ...pagingParams,
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor, full, search }) {
    // An object keyed by slug, not a paginated list.
    const raw = await context.client.get<Record<string, RawTaxonomy>>('/wp/v2/taxonomies', { context: 'edit' });
    const items = Object.values(raw)
      .map((tax) => ({
        slug: tax.slug,
        name: decodeEntities(tax.name),
        hierarchical: Boolean(tax.hierarchical),
        rest_base: tax.rest_base ?? tax.slug,
        builtin: CORE_TAXONOMIES.has(tax.slug),
        ...(full ? { description: decodeEntities(tax.description), types: tax.types ?? [] } : {}),
      }))
      .filter((tax) => matches(search, tax.slug, tax.name));
    return listPage(context, memorySource(items, (tax) => tax.slug), {
      tool: 'list-taxonomies',
      filters: { search },
      limit,
      cursor,
      defaultLimit: 100,
      narrowWith: 'search',
    });
  },
});
