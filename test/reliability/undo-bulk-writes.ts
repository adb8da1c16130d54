import fc from 'fast-check';
import { readTerms } from './undo-snapshot.js';
import { op, type Op, resolveOp, subtree, TAXONOMY_WRITES, type World } from './undo-writes.js';

/**
 * The undo property's term side of issue #59 (undo-property-terms-bulk.test.ts): random sequences
 * of the taxonomy writes (undo-writes.ts) and the bulk term tools — migrate-terms,
 * set-terms-parent, prune-terms — each bulk one drawn several times. An op holds only choices;
 * it becomes a call on the site as it is when it runs, so the same seed gives the same sequence.
 */
export const TERM_BULK = ['migrate-terms', 'set-terms-parent', 'prune-terms'] as const;
export const TERMS_BULK_TOOLS: readonly string[] = [...TAXONOMY_WRITES, ...TERM_BULK];

/** Every taxonomy write once, each bulk term tool `bulk` times, `extra` more drawn, shuffled. */
export function bulkOpSequence(bulk: number, extra: number): fc.Arbitrary<Op[]> {
  const fixed = [...TAXONOMY_WRITES, ...TERM_BULK.flatMap((tool) => Array<string>(bulk).fill(tool))];
  return fc
    .array(fc.constantFrom(...TERMS_BULK_TOOLS), { minLength: extra, maxLength: extra })
    .chain((more) => fc.shuffledSubarray([...fixed, ...more], { minLength: fixed.length + more.length }))
    .chain((tools) => fc.tuple(...tools.map(op)));
}

export type Taxonomy = 'category' | 'post_tag' | 'genre' | 'product_cat';
export const ROUTES: Record<Taxonomy, { rest_base: string; rest_namespace?: string }> = {
  category: { rest_base: 'categories' },
  post_tag: { rest_base: 'tags' },
  genre: { rest_base: 'genres' },
  product_cat: { rest_base: 'product-categories', rest_namespace: 'shop/v1' },
};
/** Migrations drawn: between the taxonomies posts have (genre is on posts only; category and tags on books too). */
const PAIRS: Array<[Taxonomy, Taxonomy]> = [
  ['category', 'post_tag'],
  ['post_tag', 'category'],
  ['category', 'genre'],
  ['genre', 'post_tag'],
  ['post_tag', 'genre'],
];

const at = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
function some<T>(list: readonly T[], n: number, seed: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.min(n, list.length); i++) {
    const item = list[(seed + i * 7919) % list.length] as T;
    if (!out.includes(item)) out.push(item);
  }
  return out;
}


/** The call an op makes now (a bulk term tool here, any other through resolveOp). */
export async function resolveBulkOp(o: Op, i: number, world: World): Promise<[string, Record<string, unknown>] | undefined> {
  const [a, b, c, d] = o.picks;
  const [f1, f2, f3, f4] = o.flags;
  const terms = async (tax: Taxonomy) =>
    (await readTerms(ROUTES[tax])).filter((t) => !(tax === 'category' && t.id === world.defaultCategory));
  switch (o.tool) {
    case 'migrate-terms': {
      const [from, to] = at(PAIRS, a) as [Taxonomy, Taxonomy];
      const chosen = some(await terms(from), 1 + (b % 2), c);
      if (!chosen.length) return undefined;
      return [o.tool, { from_taxonomy: from, to_taxonomy: to, term_ids: chosen.map((t) => t.id), ...(f1 && f2 ? { keep_source: true } : {}) }];
    }
    case 'set-terms-parent': {
      const taxonomy: Taxonomy = f4 ? 'product_cat' : 'category';
      const all = await terms(taxonomy);
      const moving = some(all, 1 + (b % 4), c);
      if (!moving.length) return undefined;
      const banned = new Set(moving.flatMap((t) => [...subtree(all, t.id)]));
      const parent = f3 ? 0 : (at(all.filter((t) => !banned.has(t.id)), a)?.id ?? 0);
      return [o.tool, { taxonomy, term_ids: moving.map((t) => t.id), parent }];
    }
    case 'prune-terms': {
      const taxonomy = at(['category', 'post_tag', 'genre'] as const, d) as Taxonomy;
      const pick = at(await terms(taxonomy), a);
      if (!pick) return undefined;
      // A few letters of a term's name: a handful of terms, some used by a post or two.
      return [o.tool, { taxonomy, search: pick.name.slice(0, 3 + (c % 3)), max_posts: b % 3, ...(f2 && taxonomy === 'category' ? { include_parents: true } : {}) }];
    }
    default:
      return resolveOp(o, i, world);
  }
}
