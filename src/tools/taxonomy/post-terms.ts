import { chunk, mapLimit, type WordPressClient, type WordPressError } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import { type PostTypeRoute, postTypeRoutes } from './post-types.js';

/**
 * What the post-terms code needs of a taxonomy, any taxonomy: CATEGORY and TAG (terms.ts)
 * are such objects, and so is `{ taxonomy: 'product_cat', postsParam: 'product_cat', route:
 * '/wp/v2/product_cat', noun: 'product category' }` for a taxonomy shown in REST.
 */
export interface PostTermsTaxonomy {
  /** The taxonomy's slug in WordPress. */
  taxonomy: string;
  /** Its REST base: the posts' field and query parameter holding its term ids. */
  postsParam: string;
  /** Its terms' REST collection, e.g. `/wp/v2/categories`. */
  route: string;
  /** One term, for messages: "category". */
  noun: string;
}

/** A post (of any type the taxonomy is on) and its term ids in one taxonomy. */
export interface PostTerms {
  id: number;
  terms: number[];
  /**
   * Its REST collection, e.g. `/wp/v2/pages`; core-path writes go to `${route}/${id}`. Empty when
   * read through the companion plugin (a type hidden from REST has none): the plugin writes those.
   */
  route: string;
  status?: string;
  /** `date_gmt` as REST gives it (UTC, no zone). */
  dateGmt?: string;
}

export interface PostFailure {
  post_id: number;
  /** `changed`: the post was left changed (terms removed and not given back): the call did write. */
  error: { code: string; message: string; changed?: true };
}

function toPostTerms(kind: PostTermsTaxonomy, route: PostTypeRoute, raw: Record<string, unknown>): PostTerms {
  return {
    id: Number(raw.id),
    terms: (raw[kind.postsParam] as number[] | undefined) ?? [],
    route: route.route,
    status: raw.status as string | undefined,
    dateGmt: raw.date_gmt as string | undefined,
  };
}

/** The companion plugin's read route (0.4.0): every post type and status, read from the relationships. */
const READ_ROUTE = '/cms-admin/v1/post-terms';
type PluginPost = { id: number; type: string | null; status: string | null; date_gmt: string | null; terms: number[] };

const viaPlugin = (client: WordPressClient) => hasCompanion(client, 'post-terms/read');

/** Writes of these go through the plugin too (its write route is older than its read route): no REST route needed. */
function fromPlugin(raws: PluginPost[]): PostTerms[] {
  return raws.map((raw) => ({
    id: Number(raw.id),
    terms: raw.terms.map(Number),
    route: '',
    ...(raw.status !== null && { status: raw.status }),
    ...(raw.date_gmt !== null && { dateGmt: raw.date_gmt }),
  }));
}

/**
 * The posts among `ids`, of every type the taxonomy is registered for and every status, with
 * their current terms (100 ids a request per type). Post ids are unique across types. With the
 * companion plugin also posts of types hidden from REST.
 */
export async function readPostTerms(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  ids: readonly number[],
): Promise<PostTerms[]> {
  if (await viaPlugin(client)) {
    const pages = await mapLimit(chunk(ids, 250), client.concurrency, (postIds) =>
      client.get<PluginPost[]>(READ_ROUTE, { taxonomy: kind.taxonomy, post_ids: postIds, per_page: 250 }),
    );
    return fromPlugin(pages.flat());
  }
  const routes = await postTypeRoutes(client, kind.taxonomy);
  const jobs = routes.flatMap((route) => chunk(ids, 100).map((include) => ({ route, include })));
  const pages = await mapLimit(jobs, client.concurrency, async ({ route, include }) =>
    (
      await client.get<Array<Record<string, unknown>>>(route.route, {
        include,
        status: route.statuses,
        context: 'edit',
        _fields: `id,status,date_gmt,${kind.postsParam}`,
        per_page: 100,
      })
    ).map((raw) => toPostTerms(kind, route, raw)),
  );
  return pages.flat();
}

/**
 * Every post of every type and status having any of `termIds`, all pages. Ordered by id:
 * offset pages ordered by date skip or repeat posts that share a date (e.g. created by one batch).
 * With the companion plugin: every object holding them, also of types hidden from REST.
 */
export async function postsWithAnyTerm(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  termIds: readonly number[],
): Promise<PostTerms[]> {
  if (await viaPlugin(client)) {
    const raws = await client.all<PluginPost>(READ_ROUTE, { taxonomy: kind.taxonomy, term_ids: termIds, per_page: 500 });
    return fromPlugin(raws);
  }
  const routes = await postTypeRoutes(client, kind.taxonomy);
  const lists = await mapLimit(routes, client.concurrency, async (route) =>
    (
      await client.all<Record<string, unknown>>(route.route, {
        [kind.postsParam]: termIds,
        status: route.statuses,
        context: 'edit',
        _fields: `id,status,date_gmt,${kind.postsParam}`,
        orderby: 'id',
        order: 'asc',
        per_page: 100,
      })
    ).map((raw) => toPostTerms(kind, route, raw)),
  );
  return lists.flat();
}

/**
 * Objects holding the term, every type and status (a term's own `count` is published posts
 * only). Without the plugin, only what REST shows: hidden-holders.ts says what it cannot.
 */
export async function countPostsUsing(client: WordPressClient, kind: PostTermsTaxonomy, id: number): Promise<number> {
  if (await viaPlugin(client)) return client.count(READ_ROUTE, { taxonomy: kind.taxonomy, term_ids: [id] });
  const routes = await postTypeRoutes(client, kind.taxonomy);
  const counts = await mapLimit(routes, client.concurrency, (route) =>
    client.count(route.route, { [kind.postsParam]: id, status: route.statuses, context: 'edit' }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

export function failure(postId: number, error: Pick<WordPressError, 'code' | 'message'> & { changed?: true }): PostFailure {
  return { post_id: postId, error: { code: error.code, message: error.message, ...(error.changed && { changed: true }) } };
}

/** The ids among `ids` that are not (or no longer) terms of the taxonomy: one function for both layers. */
export { missingTermIds as missingTerms } from './terms.js';

/** The same change for many posts: these terms added, those removed, the others kept. */
export interface TermChange {
  add: readonly number[];
  remove: readonly number[];
}

/** Whether a post's terms show the change done: every added term there, no removed one. */
export function carries(terms: readonly number[], change: TermChange) {
  return change.add.every((t) => terms.includes(t)) && !change.remove.some((t) => terms.includes(t));
}

export interface AssignReport {
  updated: number[];
  unchanged: number[];
  failed: PostFailure[];
  /**
   * Per updated post, the terms it really gained and lost, as the companion plugin (0.5.3) read
   * them while writing; absent on the core path and for posts whose answer was lost.
   */
  changes?: Record<string, { added: number[]; removed: number[] }>;
}
