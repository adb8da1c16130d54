import { wp } from '../helpers/site.js';

/**
 * The state an undo promises to give back (issue #24), read from WordPress directly: every
 * term of every REST taxonomy (name, slug, description, registered meta, parent as a slug path, since a
 * recreated term has a new id), every post's terms in every taxonomy by slug (any type, any
 * status), every user's email, name, bio, roles and disabled state. Keyed by slug, post id and
 * username, so a difference reads as "this term / this post / this user".
 */
export interface UndoSnapshot {
  terms: Record<string, Record<string, { name: string; description: string; parent: string; meta?: Record<string, unknown> }>>;
  posts: Record<string, Record<string, string[]>>;
  users: Record<string, { email: string; name: string; bio: string; roles: string[]; disabled: boolean | null }>;
}

interface RestTaxonomy {
  slug: string;
  rest_base: string;
  rest_namespace?: string;
  hierarchical: boolean;
  types: string[];
}
interface RestType {
  slug: string;
  rest_base: string;
  rest_namespace?: string;
}
interface RawTerm {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent?: number;
  /** Published posts using it (the generator's choice of force). */
  count?: number;
  /** Registered term meta shown in REST (`[]` when none is registered). */
  meta?: Record<string, unknown> | unknown[];
}

/** Every status a post can have terms in (trash included: a merge moves trashed posts too). */
export const ALL_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

/** The REST taxonomies and post types, with the routes of each. */
export async function restTaxonomies(): Promise<{ taxonomies: RestTaxonomy[]; types: RestType[] }> {
  const client = wp();
  const [taxonomies, types] = await Promise.all([
    client.get<Record<string, RestTaxonomy>>('/wp/v2/taxonomies', { context: 'edit' }),
    client.get<Record<string, RestType>>('/wp/v2/types', { context: 'edit' }),
  ]);
  const used = new Set(Object.values(taxonomies).flatMap((t) => t.types));
  return {
    taxonomies: Object.values(taxonomies).filter((t) => t.rest_base),
    // Attachments have no status filter of their kind and the seed gives them no terms.
    types: Object.values(types).filter((t) => used.has(t.slug) && t.rest_base && t.slug !== 'attachment'),
  };
}

const route = (r: { rest_base: string; rest_namespace?: string }) => `/${r.rest_namespace || 'wp/v2'}/${r.rest_base}`;

/** Every term of a taxonomy, raw (ids included), for the generator and the snapshot. */
export async function readTerms(taxonomy: { rest_base: string; rest_namespace?: string }): Promise<RawTerm[]> {
  return wp().all<RawTerm>(route(taxonomy), {
    hide_empty: false,
    context: 'edit',
    orderby: 'id',
    _fields: 'id,name,slug,description,parent,count,meta',
  });
}

/** A term's registered meta, when there is any (#34.3: undo gives it back). */
const metaOf = (t: RawTerm) =>
  t.meta && !Array.isArray(t.meta) && Object.keys(t.meta).length ? { meta: t.meta } : {};

export async function undoSnapshot(): Promise<UndoSnapshot> {
  const client = wp();
  const { taxonomies, types } = await restTaxonomies();
  const snapshot: UndoSnapshot = { terms: {}, posts: {}, users: {} };
  /** Per taxonomy: term id → slug, to name a post's terms. */
  const slugs = new Map<string, Map<number, string>>();
  await Promise.all(
    taxonomies.map(async (taxonomy) => {
      const terms = await readTerms(taxonomy);
      const byId = new Map(terms.map((t) => [t.id, t]));
      const path = (term: RawTerm): string => {
        const seen = new Set<number>();
        const parts: string[] = [];
        for (let at = byId.get(term.parent ?? 0); at && !seen.has(at.id); at = byId.get(at.parent ?? 0)) {
          seen.add(at.id);
          parts.unshift(at.slug);
        }
        return parts.join('/');
      };
      slugs.set(taxonomy.slug, new Map(terms.map((t) => [t.id, t.slug])));
      snapshot.terms[taxonomy.slug] = Object.fromEntries(
        [...terms]
          .sort((a, b) => a.slug.localeCompare(b.slug))
          .map((t) => [t.slug, { name: t.name, description: t.description, parent: path(t), ...metaOf(t) }]),
      );
    }),
  );
  await Promise.all(
    types.map(async (type) => {
      const own = taxonomies.filter((t) => t.types.includes(type.slug));
      const posts = await client.all<Record<string, unknown> & { id: number }>(route(type), {
        status: ALL_STATUSES,
        context: 'edit',
        orderby: 'id',
        order: 'asc',
        _fields: ['id', ...own.map((t) => t.rest_base)].join(','),
      });
      for (const post of posts) {
        snapshot.posts[`${type.slug}:${post.id}`] = Object.fromEntries(
          own.map((t) => {
            const ids = (post[t.rest_base] as number[] | undefined) ?? [];
            const names = ids.map((id) => slugs.get(t.slug)?.get(id) ?? `missing term ${id}`);
            return [t.slug, names.sort()];
          }),
        );
      }
    }),
  );
  const users = await client.all<{
    username: string;
    email: string;
    name: string;
    description: string;
    roles: string[];
    cms_disabled?: boolean;
  }>('/wp/v2/users', { context: 'edit', orderby: 'id', _fields: 'id,username,name,email,description,roles,cms_disabled' });
  for (const u of users.sort((a, b) => a.username.localeCompare(b.username))) {
    snapshot.users[u.username] = {
      email: u.email,
      name: u.name,
      bio: u.description,
      roles: [...u.roles].sort(),
      disabled: typeof u.cms_disabled === 'boolean' ? u.cms_disabled : null,
    };
  }
  return snapshot;
}

/** Differences in a few lines each (the full diff of two snapshots is thousands of lines). */
export function snapshotDiff(before: UndoSnapshot, after: UndoSnapshot): string[] {
  const out: string[] = [];
  const compare = (where: string, a: Record<string, unknown>, b: Record<string, unknown>) => {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const [x, y] = [JSON.stringify(a[key]), JSON.stringify(b[key])];
      if (x !== y) out.push(`${where} ${key}: ${x ?? 'absent'} → ${y ?? 'absent'}`);
    }
  };
  for (const tax of new Set([...Object.keys(before.terms), ...Object.keys(after.terms)]))
    compare(`term ${tax}`, before.terms[tax] ?? {}, after.terms[tax] ?? {});
  compare('post', before.posts, after.posts);
  compare('user', before.users, after.users);
  return out;
}
