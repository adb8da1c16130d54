import { decodeEntities, type WordPressClient } from '../../client/index.js';
import type { ListSource } from '../answers/page.js';
import { COMPANION_NAMESPACE, hasCompanion } from '../companion.js';
import type { TermKind } from './terms.js';

/**
 * find-duplicate-terms' groups (#51, #61). With the companion plugin 0.7.0 the site groups the
 * names itself (includes/term-duplicates.php, the same key from the same character data) and
 * keeps the result for the next pages: one request a page. Without it every page reads the
 * taxonomy's terms again, at most FALLBACK_TERMS of them, and the answer says so.
 */

export type DuplicateTerm = { id: number; name: string; slug: string; parent: number; posts: number };
export type DuplicateGroup = { name: string; target_id: number; terms: DuplicateTerm[] };

/** Terms a page reads without the plugin's route (50 requests of 100, or 10 of 500). */
export const FALLBACK_TERMS = 5000;

/**
 * The key two near-duplicate names share: case, accents, spacing and punctuation dropped, and
 * a final plural `s` ("JavaScript", "javascript ", "Java-Script", "Javascripts" → "javascript").
 * The plugin's cms_admin_duplicate_keys() makes the same key (scripts/duplicate-key-data.mjs).
 */
export function duplicateKey(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  return plain.length > 3 && plain.endsWith('s') && !plain.endsWith('ss') ? plain.slice(0, -1) : plain;
}

/** Groups of two or more terms with one key, by key; in each, the most used first (the suggested target). */
export function duplicateGroups(terms: readonly DuplicateTerm[]): Array<DuplicateGroup & { key: string }> {
  const groups = new Map<string, DuplicateTerm[]>();
  for (const term of terms) {
    const key = duplicateKey(term.name);
    if (key) groups.set(key, [...(groups.get(key) ?? []), term]);
  }
  return [...groups.entries()]
    .filter(([, group]) => group.length > 1)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, group]) => {
      const sorted = [...group].sort((a, b) => b.posts - a.posts || a.id - b.id);
      return { key, name: sorted[0]!.name, target_id: sorted[0]!.id, terms: sorted };
    });
}

/** The groups of a taxonomy as a listing, a page at a time, and what the answer adds (the fallback's note). */
export async function duplicateSource(
  client: WordPressClient,
  kind: TermKind,
): Promise<{ source: ListSource<DuplicateGroup>; extra: () => Record<string, unknown> }> {
  const keys = new WeakMap<DuplicateGroup, string>();
  const key = (group: DuplicateGroup) => keys.get(group) ?? '';
  if (await hasCompanion(client, 'term-duplicates')) {
    const source: ListSource<DuplicateGroup> = {
      key,
      async fetch({ offset, count, snapshot }) {
        const answer = await client.get<RouteAnswer>(`/${COMPANION_NAMESPACE}/term-duplicates`, {
          taxonomy: kind.taxonomy,
          offset,
          per_page: count,
          ...(snapshot ? { snapshot } : {}),
        });
        const items = answer.groups.map(({ key: groupKey, terms }) => {
          const decoded = terms.map((t) => ({ ...t, name: decodeEntities(t.name) }));
          const group = { name: decoded[0]!.name, target_id: decoded[0]!.id, terms: decoded };
          keys.set(group, groupKey);
          return group;
        });
        return { items, total: answer.total, snapshot: answer.snapshot };
      },
    };
    return { source, extra: () => ({}) };
  }
  const before = client.stats.requests;
  const read = await readTerms(client, kind);
  const requests = client.stats.requests - before;
  const groups = duplicateGroups(read.terms).map(({ key: groupKey, ...group }) => {
    keys.set(group, groupKey);
    return group;
  });
  const compared = read.total > read.terms.length ? ` Only the first ${read.terms.length} of its ${read.total} terms were compared.` : '';
  const note = `Slower without the companion plugin 0.7.0: every page re-reads the taxonomy's terms (${requests} requests each).${compared} Install or update it for one request a page.`;
  return {
    source: { key, fetch: async ({ offset, count }) => ({ items: groups.slice(offset, offset + count), total: groups.length }) },
    extra: () => ({ note }),
  };
}

interface RouteAnswer {
  total: number;
  snapshot: string;
  groups: Array<{ key: string; terms: DuplicateTerm[] }>;
}

/** Up to FALLBACK_TERMS terms with post counts: every type and status with the plugin's term-usage (0.6.0), else WordPress's published count. */
async function readTerms(client: WordPressClient, kind: TermKind): Promise<{ terms: DuplicateTerm[]; total: number }> {
  const window = { offset: 0, count: FALLBACK_TERMS };
  if (await hasCompanion(client, 'term-usage')) {
    const read = await client.window<DuplicateTerm & { objects: number }>(`/${COMPANION_NAMESPACE}/term-usage`, { taxonomy: kind.taxonomy }, window);
    const terms = read.items.map((t) => ({ id: t.id, name: decodeEntities(t.name), slug: t.slug, parent: t.parent, posts: t.objects }));
    return { terms, total: read.total };
  }
  const read = await client.window<{ id: number; name: string; slug: string; parent?: number; count: number }>(
    kind.route,
    { _fields: 'id,name,slug,parent,count', hide_empty: false, orderby: 'id' },
    window,
  );
  const terms = read.items.map((t) => ({ id: t.id, name: decodeEntities(t.name), slug: t.slug, parent: t.parent ?? 0, posts: t.count }));
  return { terms, total: read.total };
}
