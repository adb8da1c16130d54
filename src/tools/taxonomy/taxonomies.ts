import type { WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { CATEGORY_FIELDS, TAG_FIELDS, toCategory, toTag } from './records.js';
import type { TermKind } from './terms.js';

/** A taxonomy as /wp/v2/taxonomies lists it (only those with show_in_rest). */
interface RestTaxonomy {
  slug: string;
  hierarchical?: boolean;
  rest_base?: string;
  rest_namespace?: string;
}

const cache = new WeakMap<WordPressClient, Promise<Record<string, RestTaxonomy>>>();

function readTaxonomies(client: WordPressClient, fresh: boolean): Promise<Record<string, RestTaxonomy>> {
  let list = fresh ? undefined : cache.get(client);
  if (!list) {
    // An object keyed by slug (so no `_fields`: it would filter the keys); taxonomies
    // registered with show_in_rest false are absent.
    list = client.get<Record<string, RestTaxonomy>>('/wp/v2/taxonomies');
    cache.set(client, list);
    list.catch(() => cache.delete(client));
  }
  return list;
}

/**
 * The kind of any taxonomy by its slug, with its routes from its own REST record: a
 * taxonomy's `rest_base` often differs from its slug (`post_tag` → `tags`), and plugins put
 * theirs under their own namespace. Read once per client; an unknown slug reads again once.
 */
export async function resolveTaxonomy(client: WordPressClient, slug: string): Promise<TermKind> {
  let taxonomies = await readTaxonomies(client, false);
  if (!taxonomies[slug]) taxonomies = await readTaxonomies(client, true);
  const record = taxonomies[slug];
  if (!record) {
    const known = Object.keys(taxonomies).sort();
    throw new ToolError(
      'taxonomy_not_found',
      `No taxonomy "${slug}" in the site's REST API (unknown, or registered without show_in_rest). Taxonomies: ${known.join(', ')}.`,
      { hint: 'Use a slug from list-taxonomies.', details: { taxonomies: known } },
    );
  }
  return termKindOf(record);
}

const CORE_NOUNS: Record<string, [string, string]> = { category: ['category', 'categories'], post_tag: ['tag', 'tags'] };

function termKindOf(record: RestTaxonomy): TermKind {
  const base = record.rest_base || record.slug;
  const hierarchical = Boolean(record.hierarchical);
  // Messages say "tag"/"category" for core's two; other taxonomies' terms by slug ("genre term").
  const words = CORE_NOUNS[record.slug] ?? [`${record.slug} term`, `${record.slug} terms`];
  return {
    noun: words[0],
    plural: words[1],
    codeStem: 'term',
    route: `/${record.rest_namespace || 'wp/v2'}/${base}`,
    postsParam: base,
    taxonomy: record.slug,
    listTool: `list-terms (taxonomy ${record.slug})`,
    fields: hierarchical ? CATEGORY_FIELDS : TAG_FIELDS,
    hierarchical,
    toRecord: hierarchical ? toCategory : toTag,
  };
}
