import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, pagingParams } from '../answers/page.js';
import { text, wpId, wpIds } from '../schema.js';
import { decodeEntities, type WordPressClient } from '../../client/index.js';
import { postSource } from './post-search.js';
import { resolveTaxonomy } from './taxonomies.js';

export const findPosts = defineTool({
  name: 'find-posts',
  toolkit: 'taxonomy',
  description: 'Posts matching all filters, newest first.',
  schema: () => z.strictObject({
    search: text().optional().describe('In title or content'),
    post_type: text(20).optional().describe('Default all'),
    status: text(20).optional().describe('Or any (incl. trash)'),
    taxonomy: text(32).optional(),
    term_ids: wpIds().optional().describe('Any of these'),
    no_terms: z.boolean().optional().describe('None in taxonomy'),
    author: wpId().optional().describe('User id'),
    after: text(40).optional().describe('ISO 8601'),
    before: text(40).optional(),
    ...pagingParams,
  }),
  outputSchema: listOutput,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(context, { limit, cursor, ...filters }) {
    const page = await listPage(context, await postSource(context.client, filters), {
      tool: 'find-posts',
      filters,
      limit,
      cursor,
      defaultLimit: 50,
      narrowWith: 'post_type, search, status, taxonomy or dates',
    });
    if (filters.no_terms && filters.taxonomy) {
      const kind = await resolveTaxonomy(context.client, filters.taxonomy);
      if (kind.taxonomy === 'category') page.note = await uncategorizedNote(context.client);
    }
    return page;
  },
});

/**
 * WordPress gives a post saved without a category the default one (wp_insert_post():
 * `default_category`), so "no category" finds nothing; the posts a person means are there.
 * https://developer.wordpress.org/reference/functions/wp_insert_post/
 */
async function uncategorizedNote(client: WordPressClient): Promise<string> {
  const id = await client
    .get<{ default_category?: number }>('/wp/v2/settings', { _fields: 'default_category' })
    .then((s) => s.default_category)
    .catch(() => undefined);
  const name = id
    ? await client
        .get<{ name?: string }>(`/wp/v2/categories/${id}`, { _fields: 'name' })
        .then((c) => decodeEntities(c.name ?? ''))
        .catch(() => '')
    : '';
  const which = id ? `the default category (${name ? `'${name}', ` : ''}id ${id})` : 'the default category (Settings → Writing)';
  const how = id ? `taxonomy: category, term_ids: [${id}]` : 'taxonomy: category, term_ids: [<default category id>]';
  return `WordPress files a post saved without a category under ${which}, so posts have no category only if written around WordPress. To find posts nobody categorized, search ${how}.`;
}
