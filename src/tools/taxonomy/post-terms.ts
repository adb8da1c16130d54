import { type BatchRequest, chunk, mapLimit, type WordPressClient, type WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { missingTermIds, POST_STATUSES, type TermKind, termNotFound } from './terms.js';

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

/** A request that sets a post's whole term list for one taxonomy (for `client.batch`). */
export function setPostTermsRequest(kind: TermKind, post: PostTerms): BatchRequest {
  return { path: `/wp/v2/posts/${post.id}`, body: { [kind.postsParam]: post.terms } };
}

export function failure(postId: number, error: Pick<WordPressError, 'code' | 'message'>): PostFailure {
  return { post_id: postId, error: { code: error.code, message: error.message } };
}

export interface AssignReport {
  updated: number[];
  unchanged: number[];
  failed: PostFailure[];
}

/**
 * Adds terms to posts, keeping the terms each post has. Unknown term ids stop everything
 * before any write; unknown post ids are reported and the other posts proceed.
 */
export async function assignTerms(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  termIds: readonly number[],
): Promise<AssignReport> {
  const posts = [...new Set(postIds)];
  const terms = [...new Set(termIds)];
  const missing = await missingTermIds(client, kind, terms);
  if (missing.length) {
    const error = termNotFound(kind, missing);
    throw new ToolError(error.code, `${error.message} Nothing was changed.`, {
      hint: error.hint,
      details: error.details,
    });
  }
  const found = new Map((await readPostTerms(client, kind, posts)).map((post) => [post.id, post]));
  const failed: PostFailure[] = [];
  const unchanged: number[] = [];
  const changes: PostTerms[] = [];
  for (const id of posts) {
    const post = found.get(id);
    if (!post) {
      failed.push(
        failure(id, {
          code: 'post_not_found',
          message: `No post with id ${id} (pages and trashed posts do not count).`,
        }),
      );
    } else if (terms.every((term) => post.terms.includes(term))) {
      unchanged.push(id);
    } else {
      changes.push({ id, terms: [...new Set([...post.terms, ...terms])] });
    }
  }
  const results = await client.batch(changes.map((post) => setPostTermsRequest(kind, post)));
  const updated: number[] = [];
  results.forEach((result, index) => {
    const id = (changes[index] as PostTerms).id;
    if (result.ok) updated.push(id);
    else failed.push(failure(id, result.error));
  });
  return { updated, unchanged, failed };
}
