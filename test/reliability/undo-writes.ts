import fc from 'fast-check';
import { wp } from '../helpers/site.js';
import { ALL_STATUSES, readTerms } from './undo-snapshot.js';

/**
 * Random sequences of real writes for the undo property test (issue #24): every write tool,
 * each at least once, plus random extras. An op holds only choices (numbers, flags, a word);
 * it becomes a call against the site as it is when the op runs (`resolveOp`), so ids created or
 * deleted by earlier ops are picked up and the same seed gives the same sequence.
 */

export const TAXONOMY_WRITES = [
  'create-category',
  'create-tag',
  'create-term',
  'update-category',
  'update-tag',
  'update-term',
  'delete-category',
  'delete-tag',
  'delete-term',
  'merge-categories',
  'merge-terms',
  'assign-categories-to-posts',
  'assign-tags-to-posts',
  'assign-terms-to-posts',
  'remove-terms-from-posts',
] as const;
export const USER_WRITES = ['create-user', 'update-user', 'set-user-role', 'disable-user', 'enable-user'] as const;
/** Writes nothing can take back: run, left out of the comparison, reported. */
export const IRREVERSIBLE = ['reset-user-password', 'log-out-user', 'revoke-app-passwords'] as const;
export const WRITE_TOOLS: readonly string[] = [...TAXONOMY_WRITES, ...USER_WRITES, ...IRREVERSIBLE];

export interface Op {
  tool: string;
  /** Choices among what exists then (taken modulo the number of candidates). */
  picks: [number, number, number, number];
  flags: [boolean, boolean, boolean, boolean];
  size: number;
  word: string;
}

/** Names WordPress stores differently from how they are sent (entities, accents, emoji, quotes). */
const WORDS = ['Undo', 'Café', 'Q&A', "O'Brien", 'Ünïcode 😀', 'Straße', '<b>Bold</b>', 'Ελληνικά'];
const ROLES = ['subscriber', 'contributor', 'author', 'editor'];

export const op = (tool: string): fc.Arbitrary<Op> =>
  fc.record({
    tool: fc.constant(tool),
    picks: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()),
    flags: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean()),
    size: fc.integer({ min: 1, max: 25 }),
    word: fc.constantFrom(...WORDS),
  });

/** At least `min` ops: every write tool once, the rest drawn at random, in a shuffled order. */
export function opSequence(min = 50): fc.Arbitrary<Op[]> {
  const extra = Math.max(0, min - WRITE_TOOLS.length);
  return fc
    .array(fc.constantFrom(...WRITE_TOOLS), { minLength: extra, maxLength: extra + 6 })
    .chain((more) => fc.shuffledSubarray([...WRITE_TOOLS, ...more], { minLength: WRITE_TOOLS.length + more.length }))
    .chain((tools) => fc.tuple(...tools.map(op)));
}

export interface World {
  me: number;
  defaultCategory: number;
  posts: number[];
  products: number[];
  /** Users whose application passwords the sequence may revoke (made by the test's setup). */
  withAppPasswords: number[];
  tag: string;
}

type Term = Awaited<ReturnType<typeof readTerms>>[number];
const ROUTES = {
  category: { rest_base: 'categories' },
  post_tag: { rest_base: 'tags' },
  genre: { rest_base: 'genres' },
  product_cat: { rest_base: 'product-categories', rest_namespace: 'shop/v1' },
} as const;
type Taxonomy = keyof typeof ROUTES;
/** The query param that filters posts by a taxonomy's terms, and the posts it applies to. */
const POST_FILTER: Record<Taxonomy, string> = {
  category: 'categories',
  post_tag: 'tags',
  genre: 'genres',
  product_cat: 'product-categories',
};

const at = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
function some<T>(list: readonly T[], n: number, seed: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.min(n, list.length); i++) {
    const item = list[(seed + i * 7919) % list.length] as T;
    if (!out.includes(item)) out.push(item);
  }
  return out;
}
/** The term and every term below it. */
export function subtree(terms: Term[], id: number): Set<number> {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of terms)
      if (t.parent && out.has(t.parent) && !out.has(t.id)) {
        out.add(t.id);
        grew = true;
      }
  }
  return out;
}

type Call = [tool: string, params: Record<string, unknown>];

/** The call an op makes on the site as it is now; undefined when nothing fits (skipped). */
export async function resolveOp(o: Op, i: number, world: World): Promise<Call | undefined> {
  const [a, b, c, d] = o.picks;
  const [f1, f2, f3, f4] = o.flags;
  const name = `${o.word} ${world.tag}${i}`;
  // One op in three works on what this sequence made (names hold the tag): chains of create,
  // change, assign, merge and delete on the same terms, which the undo must take back in order.
  const own = d % 3 === 0;
  const terms = async (tax: Taxonomy, atLeast = 1) => {
    const all = (await readTerms(ROUTES[tax])).filter((t) => !(tax === 'category' && t.id === world.defaultCategory));
    const made = all.filter((t) => t.name.includes(` ${world.tag}`));
    return own && made.length >= atLeast ? made : all;
  };
  const anyTax: Taxonomy = at(['category', 'post_tag', 'genre', 'product_cat'] as const, d) as Taxonomy;
  const customTax: Taxonomy = f4 ? 'product_cat' : 'genre';
  const postsOf = (tax: Taxonomy) => (tax === 'product_cat' ? world.products : world.posts);
  const parentFor = async (tax: Taxonomy, id?: number) => {
    if (!f2) return undefined;
    const all = await terms(tax);
    const banned = id === undefined ? new Set<number>() : subtree(all, id);
    return f3 ? 0 : at(all.filter((t) => !banned.has(t.id)), c)?.id;
  };
  const update = async (tax: Taxonomy, hierarchical: boolean): Promise<Record<string, unknown> | undefined> => {
    const term = at(await terms(tax), a);
    if (!term) return undefined;
    const params: Record<string, unknown> = { id: term.id };
    if (f1 || !(f2 || f3)) params.name = name;
    if (f3) params.description = f1 ? '' : `About ${name}.`;
    if (hierarchical && f2) params.parent = await parentFor(tax, term.id);
    if (!f1 && f2) params.slug = `undo-${world.tag}-${i}`;
    return params;
  };
  const merge = async (tax: Taxonomy) => {
    const all = await terms(tax, 2);
    const target = at(all, a);
    if (!target) return undefined;
    const sources = some(all, 1 + (b % 3), c).filter((t) => t.id !== target.id && !subtree(all, t.id).has(target.id));
    if (!sources.length) return undefined;
    return { source_ids: sources.map((s) => s.id), target_id: target.id, delete_sources: f1 || f2 };
  };
  /** Posts holding the term (so a removal removes something), with a few others. */
  const holders = async (tax: Taxonomy, termId: number) => {
    const type = tax === 'product_cat' ? 'products' : 'posts';
    const found = await wp().get<Array<{ id: number }>>(`/wp/v2/${type}`, {
      [POST_FILTER[tax]]: termId,
      status: ALL_STATUSES,
      context: 'edit',
      _fields: 'id',
      per_page: 100,
    });
    return [...new Set([...some(found.map((p) => p.id), o.size, b), ...some(postsOf(tax), f3 || !found.length ? 2 : 0, c)])];
  };
  const users = async () => {
    const all = await wp().all<{ id: number; username: string; cms_disabled?: boolean }>('/wp/v2/users', {
      context: 'edit',
      _fields: 'id,username,cms_disabled',
    });
    const others = all.filter((u) => u.id !== world.me);
    const made = others.filter((u) => u.username.startsWith(`undo_${world.tag}_`));
    return own && made.length ? made : others;
  };
  const someUser = async (prefer?: (u: { cms_disabled?: boolean }) => boolean, always = false) => {
    const all = await users();
    const preferred = prefer ? all.filter(prefer) : [];
    return at(preferred.length && (f1 || always) ? preferred : all, a)?.id;
  };

  switch (o.tool) {
    case 'create-category': {
      const parent = await parentFor('category');
      return [o.tool, { name, ...(parent !== undefined && { parent }), ...(f1 && { description: `Made by ${name}.` }) }];
    }
    case 'create-tag':
      return [o.tool, { name, ...(f1 && { description: `Tag ${name}.` }) }];
    case 'create-term': {
      const parent = customTax === 'product_cat' ? await parentFor(customTax) : undefined;
      return [o.tool, { taxonomy: customTax, name, ...(parent !== undefined && { parent }), ...(f1 && { slug: `undo-${world.tag}-${i}` }) }];
    }
    case 'update-category':
    case 'update-tag':
    case 'update-term': {
      const tax = o.tool === 'update-category' ? 'category' : o.tool === 'update-tag' ? 'post_tag' : customTax;
      const params = await update(tax, tax === 'category' || tax === 'product_cat');
      return params && [o.tool, o.tool === 'update-term' ? { taxonomy: tax, ...params } : params];
    }
    case 'delete-category':
    case 'delete-tag':
    case 'delete-term': {
      const tax = o.tool === 'delete-category' ? 'category' : o.tool === 'delete-tag' ? 'post_tag' : customTax;
      const term = at(await terms(tax), a);
      // Unforced deletes only of terms no published post uses (the others are refused: nothing to undo).
      const params = term && { id: term.id, force: term.count ? true : f1 };
      return params && [o.tool, o.tool === 'delete-term' ? { taxonomy: tax, ...params } : params];
    }
    case 'merge-categories': {
      const params = await merge('category');
      return params && [o.tool, params];
    }
    case 'merge-terms': {
      const params = await merge(customTax);
      return params && [o.tool, { taxonomy: customTax, ...params }];
    }
    case 'assign-categories-to-posts':
    case 'assign-tags-to-posts':
    case 'assign-terms-to-posts': {
      const tax = o.tool === 'assign-categories-to-posts' ? 'category' : o.tool === 'assign-tags-to-posts' ? 'post_tag' : customTax;
      const chosen = some(await terms(tax), 1 + (c % 3), a).map((t) => t.id);
      const post_ids = some(postsOf(tax), o.size, b);
      if (!chosen.length) return undefined;
      if (o.tool === 'assign-categories-to-posts') return [o.tool, { post_ids, category_ids: chosen }];
      if (o.tool === 'assign-tags-to-posts') return [o.tool, { post_ids, tag_ids: chosen }];
      return [o.tool, { taxonomy: tax, post_ids, term_ids: chosen }];
    }
    case 'remove-terms-from-posts': {
      const all = await terms(anyTax);
      const used = all.filter((t) => t.count);
      const term = at(used.length ? used : all, a);
      const post_ids = term && (await holders(anyTax, term.id));
      return term && post_ids?.length ? [o.tool, { taxonomy: anyTax, post_ids, term_ids: [term.id] }] : undefined;
    }
    case 'create-user': {
      const username = `undo_${world.tag}_${i}`;
      return [
        o.tool,
        {
          username,
          email: `${username}@example.org`,
          password: `Zq9!${i}-battery-staple-${world.tag}`,
          role: at(ROLES, b),
          ...(f1 && { name }),
          ...(f2 && { bio: `Bio of ${name}.` }),
        },
      ];
    }
    case 'update-user': {
      const id = await someUser();
      const params: Record<string, unknown> = { id };
      if (f1) params.email = `undo.${world.tag}.${i}@example.org`;
      if (f2 || !(f1 || f3)) params.name = f4 ? '' : name;
      if (f3) params.bio = f4 ? '' : `Now ${name}.`;
      return id === undefined ? undefined : [o.tool, params];
    }
    case 'set-user-role': {
      const id = await someUser();
      return id === undefined ? undefined : [o.tool, { id, role: at(ROLES, b), ...(f2 && { keep_other_roles: true }) }];
    }
    case 'disable-user':
    case 'enable-user': {
      const id = await someUser((u) => (o.tool === 'enable-user') === (u.cms_disabled === true));
      return id === undefined ? undefined : [o.tool, { id, ...(o.tool === 'disable-user' && f2 && { reason: name }) }];
    }
    case 'reset-user-password': {
      // A disabled account gets no reset (user_disabled): pick an enabled one.
      const id = await someUser((u) => u.cms_disabled !== true, true);
      return id === undefined ? undefined : [o.tool, { id }];
    }
    case 'log-out-user':
    case 'revoke-app-passwords': {
      const user_id = o.tool === 'revoke-app-passwords' ? at(world.withAppPasswords, a) : await someUser();
      return user_id === undefined ? undefined : [o.tool, { user_id }];
    }
    default:
      throw new Error(`no resolver for ${o.tool}`);
  }
}
