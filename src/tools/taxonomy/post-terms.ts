import { chunk, mapLimit, type WordPressClient, type WordPressError } from '../../client/index.js';
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
  /** Its REST collection, e.g. `/wp/v2/pages`; writes go to `${route}/${id}`. */
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

/**
 * The posts among `ids`, of every type the taxonomy is registered for and every status, with
 * their current terms (100 ids a request per type). Post ids are unique across types.
 */
export async function readPostTerms(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  ids: readonly number[],
): Promise<PostTerms[]> {
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
 */
export async function postsWithAnyTerm(
  client: WordPressClient,
  kind: PostTermsTaxonomy,
  termIds: readonly number[],
): Promise<PostTerms[]> {
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

/** Posts of every type and status holding the term (a term's own `count` is published posts only). */
export async function countPostsUsing(client: WordPressClient, kind: PostTermsTaxonomy, id: number): Promise<number> {
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
}
