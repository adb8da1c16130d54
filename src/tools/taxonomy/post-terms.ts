import { chunk, mapLimit, type WordPressClient, type WordPressError } from '../../client/index.js';
import { POST_STATUSES, type TermKind } from './terms.js';

/** A post and its term ids in one taxonomy. */
export interface PostTerms {
  id: number;
  terms: number[];
}

export interface PostFailure {
  post_id: number;
  error: { code: string; message: string };
}

/** The posts among `ids`, any of the five statuses, with their current terms (100 ids a request). */
export async function readPostTerms(
  client: WordPressClient,
  kind: TermKind,
  ids: readonly number[],
): Promise<PostTerms[]> {
  const pages = await mapLimit(chunk(ids, 100), client.concurrency, (include) =>
    client.get<Array<Record<string, unknown>>>('/wp/v2/posts', {
      include,
      status: POST_STATUSES,
      context: 'edit',
      _fields: `id,${kind.postsParam}`,
      per_page: 100,
    }),
  );
  return pages
    .flat()
    .map((raw) => ({ id: Number(raw.id), terms: (raw[kind.postsParam] as number[] | undefined) ?? [] }));
}

/**
 * Every post of the five statuses having any of `termIds`, all pages. Ordered by id: offset
 * pages ordered by date skip or repeat posts that share a date (e.g. created by one batch).
 */
export function postsWithAnyTerm(
  client: WordPressClient,
  kind: TermKind,
  termIds: readonly number[],
): Promise<PostTerms[]> {
  return client
    .all<Record<string, unknown>>('/wp/v2/posts', {
      [kind.postsParam]: termIds,
      status: POST_STATUSES,
      context: 'edit',
      _fields: `id,${kind.postsParam}`,
      orderby: 'id',
      order: 'asc',
      per_page: 100,
    })
    .then((raw) =>
      raw.map((post) => ({ id: Number(post.id), terms: (post[kind.postsParam] as number[] | undefined) ?? [] })),
    );
}

export function failure(postId: number, error: Pick<WordPressError, 'code' | 'message'>): PostFailure {
  return { post_id: postId, error: { code: error.code, message: error.message } };
}

export interface AssignReport {
  updated: number[];
  unchanged: number[];
  failed: PostFailure[];
}
