import type { SurfaceFixture } from './surface-fixtures.js';
import { unique, wp } from './site.js';

/** The surface property's calls of the taxonomy tools (surface-fixtures.ts). */
type Term = { id: number; slug: string; name: string };
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const term = (route: 'categories' | 'tags', prefix: string, extra: Record<string, unknown> = {}) => {
  const name = unique(prefix);
  return wp().post<Term>(`/wp/v2/${route}`, { name, slug: slugOf(name), ...extra });
};
const post = async (terms: { categories?: number[]; tags?: number[] }) =>
  (await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Surface post'), status: 'draft', ...terms })).id;

/** A call on terms: ids and slugs of the same terms, watching the terms and posts. */
function onTerms(build: (t: { id: (x: Term) => number; ref: (x: Term) => number | string }, made: Record<string, Term>, posts: number[]) => Record<string, unknown>) {
  return (made: Record<string, Term>, posts: number[] = []) => ({
    ids: build({ id: (x) => x.id, ref: (x) => x.id }, made, posts),
    names: build({ id: (x) => x.id, ref: (x) => x.slug }, made, posts),
    watch: { terms: Object.values(made).map((x) => x.id), posts },
  });
}

export const TERM_FIXTURES: Record<string, SurfaceFixture> = {
  'create-category': {
    async make() {
      const parent = await term('categories', 'Surface parent');
      const name = unique('Surface new cat');
      return { ids: { name, parent: parent.id }, names: { name, parent: parent.slug }, watch: { terms: [parent.id], termNames: [['category', name]] } };
    },
  },
  'create-tag': {
    async make() {
      const name = unique('Surface new tag');
      return { ids: { name }, watch: { termNames: [['post_tag', name]] } };
    },
  },
  'update-category': {
    make: async () => onTerms(({ ref }, m) => ({ id: ref(m.a as Term), description: 'Surface described' }))({ a: await term('categories', 'Surface upd cat') }),
  },
  'update-tag': {
    make: async () => onTerms(({ ref }, m) => ({ id: ref(m.a as Term), description: 'Surface described' }))({ a: await term('tags', 'Surface upd tag') }),
  },
  'delete-category': {
    asks: true,
    make: async () => onTerms(({ ref }, m) => ({ id: ref(m.a as Term) }))({ a: await term('categories', 'Surface del cat') }),
  },
  'delete-tag': {
    asks: true,
    make: async () => onTerms(({ ref }, m) => ({ id: ref(m.a as Term) }))({ a: await term('tags', 'Surface del tag') }),
  },
  'merge-categories': {
    asks: true,
    async make() {
      const m = { a: await term('categories', 'Surface merge a'), b: await term('categories', 'Surface merge b'), c: await term('categories', 'Surface merge c') };
      const posts = [await post({ categories: [m.a.id, m.b.id] })];
      return onTerms(({ ref }, x) => ({ source_ids: [ref(x.a as Term), ref(x.b as Term)], target_id: ref(x.c as Term) }))(m, posts);
    },
  },
  'assign-categories-to-posts': {
    async make() {
      const m = { a: await term('categories', 'Surface assign cat') };
      const posts = [await post({})];
      return onTerms(({ ref }, x, p) => ({ post_ids: p, category_ids: [ref(x.a as Term)] }))(m, posts);
    },
  },
  'assign-tags-to-posts': {
    async make() {
      const m = { a: await term('tags', 'Surface assign tag') };
      const posts = [await post({})];
      return onTerms(({ ref }, x, p) => ({ post_ids: p, tag_ids: [ref(x.a as Term)] }))(m, posts);
    },
  },
  'create-term': {
    async make() {
      const parent = await term('categories', 'Surface term parent');
      const name = unique('Surface new term');
      return {
        ids: { taxonomy: 'category', name, parent: parent.id },
        names: { taxonomy: 'category', name, parent: parent.slug },
        watch: { terms: [parent.id], termNames: [['category', name]] },
      };
    },
  },
  'update-term': {
    make: async () => onTerms(({ ref }, m) => ({ taxonomy: 'post_tag', id: ref(m.a as Term), description: 'Surface described' }))({ a: await term('tags', 'Surface upd term') }),
  },
  'delete-term': {
    asks: true,
    make: async () => onTerms(({ ref }, m) => ({ taxonomy: 'post_tag', id: ref(m.a as Term) }))({ a: await term('tags', 'Surface del term') }),
  },
  'assign-terms-to-posts': {
    async make() {
      const m = { a: await term('tags', 'Surface assign term') };
      return onTerms(({ ref }, x, p) => ({ taxonomy: 'post_tag', post_ids: p, term_ids: [ref(x.a as Term)] }))(m, [await post({})]);
    },
  },
  'remove-terms-from-posts': {
    asks: true,
    async make() {
      const m = { a: await term('tags', 'Surface remove term') };
      // More posts than the few a removal takes without asking (taxonomy/remove.ts).
      const posts = await Promise.all(Array.from({ length: 6 }, () => post({ tags: [m.a.id] })));
      return onTerms(({ ref }, x, p) => ({ taxonomy: 'post_tag', post_ids: p, term_ids: [ref(x.a as Term)] }))(m, posts);
    },
  },
  'merge-terms': {
    asks: true,
    async make() {
      const m = { a: await term('tags', 'Surface mt a'), b: await term('tags', 'Surface mt b'), c: await term('tags', 'Surface mt c') };
      return onTerms(({ ref }, x) => ({ taxonomy: 'post_tag', source_ids: [ref(x.a as Term), ref(x.b as Term)], target_id: ref(x.c as Term) }))(m, [await post({ tags: [m.a.id] })]);
    },
  },
  'prune-terms': {
    asks: true,
    async make() {
      const stem = slugOf(unique('surfaceprune'));
      const m = { a: await wp().post<Term>('/wp/v2/tags', { name: `${stem} a` }), b: await wp().post<Term>('/wp/v2/tags', { name: `${stem} b` }) };
      return onTerms(({ ref }, x) => ({ taxonomy: 'post_tag', search: stem, exclude_ids: [ref(x.b as Term)] }))(m);
    },
  },
  'recount-terms': {
    make: async () => onTerms(({ ref }, m) => ({ taxonomy: 'post_tag', term_ids: [ref(m.a as Term)] }))({ a: await term('tags', 'Surface recount') }),
  },
  'set-terms-parent': {
    asks: true,
    async make() {
      const m = { a: await term('categories', 'Surface child'), b: await term('categories', 'Surface new parent') };
      return onTerms(({ ref }, x) => ({ taxonomy: 'category', term_ids: [ref(x.a as Term)], parent: ref(x.b as Term) }))(m);
    },
  },
  'migrate-terms': {
    asks: true,
    async make() {
      const m = { a: await term('categories', 'Surface migrate') };
      const made = onTerms(({ ref }, x) => ({ from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [ref(x.a as Term)] }))(m, [await post({ categories: [m.a.id] })]);
      return { ...made, watch: { ...made.watch, termNames: [['post_tag', m.a.name]] } };
    },
  },
};
