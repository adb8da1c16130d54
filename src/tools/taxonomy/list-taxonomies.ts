import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { decodeEntities } from '../../client/index.js';

/**
 * REST does not expose `_builtin`. These are the taxonomies core registers in
 * create_initial_taxonomies() (WordPress 6.1):
 * https://github.com/WordPress/wordpress-develop/blob/6.1/src/wp-includes/taxonomy.php
 */
const CORE_TAXONOMIES = new Set([
  'category',
  'post_tag',
  'nav_menu',
  'link_category',
  'post_format',
  'wp_theme',
  'wp_template_part_area',
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
  description: 'All taxonomies, custom ones included, as {total, items}.',
  schema: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute({ client }) {
    // An object keyed by slug, not a paginated list.
    const raw = await client.get<Record<string, RawTaxonomy>>('/wp/v2/taxonomies', { context: 'edit' });
    const items = Object.values(raw).map((tax) => ({
      slug: tax.slug,
      name: decodeEntities(tax.name),
      description: decodeEntities(tax.description),
      hierarchical: Boolean(tax.hierarchical),
      rest_base: tax.rest_base ?? tax.slug,
      types: tax.types ?? [],
      builtin: CORE_TAXONOMIES.has(tax.slug),
    }));
    return { total: items.length, items };
  },
});
