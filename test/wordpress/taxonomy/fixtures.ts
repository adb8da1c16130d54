import { postTypeRoutes } from '../../../src/tools/taxonomy/post-types.js';
import type { ToolContext } from '../../../src/call/index.js';
import { WordPressError } from '../../../src/client/index.js';
import { testContext, unique, wp } from '../../helpers/site.js';

/** Fixtures for the taxonomy tests, written and read straight through `wp()`, never through the tools. */

export const STATUSES = ['publish', 'draft', 'pending', 'private', 'future'] as const;
export type Status = (typeof STATUSES)[number];

export async function makeCategory(prefix = 'Cat', parent?: number): Promise<{ id: number; name: string }> {
  const name = unique(prefix);
  const term = await wp().post<{ id: number }>('/wp/v2/categories', { name, ...(parent ? { parent } : {}) });
  return { id: term.id, name };
}

export async function makeTag(prefix = 'Tag'): Promise<{ id: number; name: string }> {
  const name = unique(prefix);
  const term = await wp().post<{ id: number }>('/wp/v2/tags', { name });
  return { id: term.id, name };
}

export interface PostSpec {
  status?: Status;
  categories?: number[];
  tags?: number[];
}

/**
 * Creates posts through /batch/v1 (25 a request); `future` posts get a date in 2035. Each answer
 * is only the id (`_fields`: WordPress then skips rendering the post, ~30% of the PHP time).
 */
export async function makePosts(specs: PostSpec[]): Promise<number[]> {
  const prefix = unique('Post');
  const results = await wp().batch(
    specs.map((spec, i) => ({
      path: '/wp/v2/posts?_fields=id',
      body: {
        title: `${prefix} ${i}`,
        status: spec.status ?? 'publish',
        ...(spec.status === 'future' ? { date: '2035-01-01T10:00:00' } : {}),
        ...(spec.categories ? { categories: spec.categories } : {}),
        ...(spec.tags ? { tags: spec.tags } : {}),
      },
    })),
  );
  return results.map((result) => {
    if (!result.ok) throw result.error;
    return (result.body as { id: number }).id;
  });
}

export interface PostState {
  id: number;
  status: string;
  categories: number[];
  tags: number[];
}

/** The posts as WordPress has them now (any status). */
export async function readPosts(ids: number[]): Promise<Map<number, PostState>> {
  const posts: PostState[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    posts.push(
      ...(await wp().get<PostState[]>('/wp/v2/posts', {
        include: ids.slice(i, i + 100),
        status: STATUSES,
        context: 'edit',
        _fields: 'id,status,categories,tags',
        per_page: 100,
      })),
    );
  }
  return new Map(posts.map((post) => [post.id, post]));
}

export async function readPost(id: number): Promise<PostState> {
  const post = (await readPosts([id])).get(id);
  if (!post) throw new Error(`post ${id} not found`);
  return post;
}

/** A term as WordPress has it now, or undefined if it does not exist. */
export async function readTerm(route: 'categories' | 'tags', id: number): Promise<Record<string, any> | undefined> {
  try {
    return await wp().get(`/wp/v2/${route}/${id}`, { context: 'edit' });
  } catch (err) {
    if (err instanceof WordPressError && err.status === 404) return undefined;
    throw err;
  }
}

/** How many HTTP requests the tools' client made while `run` ran. */
export async function countRequests<T>(
  run: () => Promise<T>,
  context: ToolContext = testContext(),
): Promise<{ result: T; requests: number }> {
  const { stats } = context.client;
  await context.client.connect(); // counted once per client, not per call
  await context.client.namespaces(); // cached per client too
  // The post types categories and tags are on: cached per client as well.
  await Promise.all(['category', 'post_tag'].map((taxonomy) => postTypeRoutes(context.client, taxonomy)));
  const before = stats.requests;
  const result = await run();
  return { result, requests: stats.requests - before };
}
