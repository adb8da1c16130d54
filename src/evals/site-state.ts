import { decodeEntities, type WordPressClient } from '../client/index.js';
import { readAppPasswords, readSessions } from './account-state.js';
import type { StateKind } from './case-schema.js';
import { type NetworkCredentials, readNetworkPosts, readNetworkUsers } from './network-state.js';

/**
 * The site as the eval checks see it: read over REST with the eval's own client, never taken
 * from the agent's transcript. Records are plain and flat so cases can compare their fields.
 */
export type SiteRecord = Record<string, unknown> & { id: number };

const POST_STATUSES = 'publish,draft,pending,private,future';

/** WordPress returns names HTML-escaped (`A &amp; B`); cases write them as typed. */
export const decodeHtml = (text: unknown): string => decodeEntities(String(text ?? ''));

type Raw = Record<string, unknown>;

/** Registered term meta (show_in_rest), when a term has any: `{meta: {seo_title: …}}` (#51). */
const metaOf = (raw: Raw) =>
  raw.meta && typeof raw.meta === 'object' && !Array.isArray(raw.meta) && Object.keys(raw.meta).length ? { meta: raw.meta } : {};

const categoriesAt = (route: string) => async (client: WordPressClient) =>
  (await client.all<Raw>(route, { hide_empty: false, orderby: 'id', context: 'edit' })).map((raw) => ({
    id: Number(raw.id),
    name: decodeHtml(raw.name),
    slug: String(raw.slug ?? ''),
    parent: Number(raw.parent ?? 0),
    description: decodeHtml(raw.description),
    count: Number(raw.count ?? 0),
    ...metaOf(raw),
  }));

const tagsAt = (route: string) => async (client: WordPressClient) =>
  (await client.all<Raw>(route, { hide_empty: false, orderby: 'id', context: 'edit' })).map((raw) => ({
    id: Number(raw.id),
    name: decodeHtml(raw.name),
    slug: String(raw.slug ?? ''),
    description: decodeHtml(raw.description),
    count: Number(raw.count ?? 0),
    ...metaOf(raw),
  }));

/** Posts of a type with their term ids; `terms` maps a record field to the REST field. */
const postsAt =
  (route: string, terms: Record<string, string>, statuses = POST_STATUSES) =>
  async (client: WordPressClient) =>
    (
      await client.all<Raw>(route, {
        status: statuses,
        orderby: 'id',
        order: 'asc',
        context: 'edit',
        _fields: `id,title,status,author,${Object.values(terms).join(',')}`,
      })
    ).map((raw) => ({
      id: Number(raw.id),
      title: String((raw.title as { raw?: string } | undefined)?.raw ?? ''),
      status: String(raw.status ?? ''),
      ...Object.fromEntries(Object.entries(terms).map(([field, rest]) => [field, (raw[rest] as number[] | undefined) ?? []])),
      author: Number(raw.author ?? 0),
    }));

const readers: Record<StateKind, (client: WordPressClient, creds?: NetworkCredentials) => Promise<SiteRecord[]>> = {
  categories: categoriesAt('/wp/v2/categories'),
  tags: tagsAt('/wp/v2/tags'),
  users: async (client) =>
    (await client.all<Raw>('/wp/v2/users', { orderby: 'id', context: 'edit' })).map((raw) => ({
      id: Number(raw.id),
      username: String(raw.username ?? ''),
      name: decodeHtml(raw.name),
      email: String(raw.email ?? ''),
      roles: (raw.roles as string[] | undefined) ?? [],
      bio: decodeHtml(raw.description),
      disabled: raw.cms_disabled === true,
      registered_date: String(raw.registered_date ?? ''),
    })),
  posts: postsAt('/wp/v2/posts', { categories: 'categories', tags: 'tags', genres: 'genres' }),
  // The sandbox's custom taxonomies and shop (scripts/sandbox/sandbox-mu-plugin.php).
  genres: tagsAt('/wp/v2/genres'),
  product_cats: categoriesAt('/shop/v1/product-categories'),
  products: postsAt('/wp/v2/products', { product_cats: 'product-categories' }),
  app_passwords: readAppPasswords,
  sessions: readSessions,
  network_users: readNetworkUsers,
  network_posts: readNetworkPosts,
  roles: async (client) =>
    (await client.get<{ roles: Raw[] }>('/cms-admin/v1/roles')).roles.map((raw, i) => ({
      id: i + 1, // roles have no id: their place in the list, for the generic checks
      role: String(raw.role),
      name: String(raw.name),
      capabilities: (raw.capabilities as string[] | undefined) ?? [],
      users_count: Number(raw.users_count ?? 0),
    })),
};

/** Reads each kind at most once (per instance): create one per point in time. */
export class SiteSnapshot {
  readonly #client: WordPressClient;
  readonly #cache = new Map<StateKind, Promise<SiteRecord[]>>();

  readonly #creds: NetworkCredentials | undefined;

  /** `creds`: a network case's account, to read each site of the network (network_posts). */
  constructor(client: WordPressClient, creds?: NetworkCredentials) {
    this.#client = client;
    this.#creds = creds;
  }

  read(kind: StateKind): Promise<SiteRecord[]> {
    let records = this.#cache.get(kind);
    if (!records) {
      records = readers[kind](this.#client, this.#creds);
      this.#cache.set(kind, records);
    }
    return records;
  }
}

/** `Parent/Child` or `/Top` (anchored at the top level): the categories at that path. */
export function categoriesAtPath(categories: readonly SiteRecord[], path: string): SiteRecord[] {
  const segments = path.split('/');
  const anchored = segments[0] === '' && segments.length > 1;
  const names = anchored ? segments.slice(1) : segments;
  const byId = new Map(categories.map((c) => [c.id, c]));
  return categories.filter((category) => {
    let current: SiteRecord | undefined = category;
    for (let i = names.length - 1; i >= 0; i--) {
      if (!current || current.name !== names[i]) return false;
      current = byId.get(Number(current.parent));
    }
    return !anchored || current === undefined;
  });
}
