import { z } from 'zod';
import { decodeEntities, type WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { listOutput } from '../output-schemas.js';
import { listPage, memorySource, pagingParams } from '../answers/page.js';
import { hasCompanion } from '../companion.js';
import { taxonomySlug } from '../schema.js';
import { termUsage } from './cleanup-routes.js';
import { resolveTaxonomy } from './taxonomies.js';
import type { TermKind } from './terms.js';

type Term = { id: number; name: string; slug: string; parent: number; posts: number };

/**
 * The key two near-duplicate names share: case, accents, spacing and punctuation dropped, and
 * a final plural `s` ("JavaScript", "javascript ", "Java-Script", "Javascripts" → "javascript").
 */
export function duplicateKey(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  return plain.length > 3 && plain.endsWith('s') && !plain.endsWith('ss') ? plain.slice(0, -1) : plain;
}

/** Posts per term: every type and status with the companion plugin, else WordPress's published count. */
async function termsWithPosts(client: WordPressClient, kind: TermKind): Promise<Term[]> {
  if (await hasCompanion(client, 'term-usage'))
    return (await termUsage(client, kind.taxonomy)).map((t) => ({ id: t.id, name: t.name, slug: t.slug, parent: t.parent, posts: t.objects }));
  const raw = await client.all<{ id: number; name: string; slug: string; parent?: number; count: number }>(kind.route, {
    _fields: 'id,name,slug,parent,count',
    hide_empty: false,
    orderby: 'id',
    per_page: 100,
  });
  return raw.map((t) => ({ id: t.id, name: decodeEntities(t.name), slug: t.slug, parent: t.parent ?? 0, posts: t.count }));
}

/** Groups of two or more terms with one key; the most used first (the suggested target). */
export function duplicateGroups(terms: readonly Term[]) {
  const groups = new Map<string, Term[]>();
  for (const term of terms) {
    const key = duplicateKey(term.name);
    if (key) groups.set(key, [...(groups.get(key) ?? []), term]);
  }
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => {
      const sorted = [...group].sort((a, b) => b.posts - a.posts || a.id - b.id);
      return { name: sorted[0]!.name, target_id: sorted[0]!.id, terms: sorted };
    });
}

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
    const groups = duplicateGroups(await termsWithPosts(context.client, kind));
    return listPage(context, memorySource(groups, (g) => `${g.name.toLowerCase()}\u0000${g.target_id}`), {
      tool: 'find-duplicate-terms',
      filters: { taxonomy: kind.taxonomy },
      limit: params.limit,
      cursor: params.cursor,
      defaultLimit: 50,
      narrowWith: 'limit',
    }, { taxonomy: kind.taxonomy });
  },
});
