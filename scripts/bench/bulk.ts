import { chunk, mapLimit, type WordPressClient } from '../../src/client/index.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import type { ToolContext } from '../../src/call/index.js';
import { withoutCompanion } from '../../test/helpers/site.js';
import { callTool, type Measurement, measure } from './measure.js';

export const STATUSES = 'publish,draft,pending,private,future';
type PostCats = { id: number; categories: number[] };

let counter = 0;
const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${++counter}`;

export async function newTerm(client: WordPressClient, prefix: string, route = '/wp/v2/categories'): Promise<number> {
  return (await client.post<{ id: number }>(route, { name: uniqueName(prefix) })).id;
}

/** Post ids of the large site, any status, oldest first. */
export async function allPostIds(client: WordPressClient): Promise<number[]> {
  const posts = await client.all<{ id: number }>('/wp/v2/posts', { status: STATUSES, context: 'edit', _fields: 'id', orderby: 'id', order: 'asc' });
  return posts.map((p) => p.id);
}

// ---- Bulk assign: add one category to N posts, keeping their categories.

/** A post's terms in one REST field (`categories`, `genres`, …) → the list to write. */
export type TermChange = (terms: number[]) => number[];

/** The floor: read the posts in pages of 100, write them in batches of 25. */
export async function floorWrite(client: WordPressClient, postIds: number[], field: string, change: TermChange) {
  const pages = await mapLimit(chunk(postIds, 100), 4, (include) =>
    client.get<Array<Record<string, number[]> & { id: number }>>('/wp/v2/posts', { include, status: STATUSES, context: 'edit', _fields: `id,${field}`, per_page: 100 }),
  );
  return client.batch(pages.flat().map((p) => ({ path: `/wp/v2/posts/${p.id}`, body: { [field]: change(p[field] ?? []) } })));
}

/** What simple clients do: GET then POST, one post at a time. */
export async function perPostWrite(client: WordPressClient, postIds: number[], field: string, change: TermChange) {
  for (const id of postIds) {
    const post = await client.get<Record<string, number[]>>(`/wp/v2/posts/${id}`, { context: 'edit', _fields: `id,${field}` });
    await client.post(`/wp/v2/posts/${id}`, { [field]: change(post[field] ?? []) });
  }
}

const adding = (id: number): TermChange => (terms) => [...terms, id];

/** Restores the large site before each run (untimed), so every approach starts from the same state. */
export type Reset = () => Promise<void>;

export async function benchAssign(site: SandboxCredentials, postIds: number[], runs: number, reset: Reset): Promise<Record<string, Measurement>> {
  const prepare = async (context: ToolContext) => {
    await reset();
    return newTerm(context.client, 'Bench assign');
  };
  return {
    floor: await measure(site, runs, prepare, (c, cat) => floorWrite(c.client, postIds, 'categories', adding(cat))),
    perPost: await measure(site, 1, prepare, (c, cat) => perPostWrite(c.client, postIds, 'categories', adding(cat))),
    tool: await measure(site, runs, prepare, (c, cat) => callTool(c, 'assign-categories-to-posts', { post_ids: postIds, category_ids: [cat] })),
    toolRestOnly: await measure(site, runs, prepare, (c, cat) =>
      callTool(withoutCompanion(c), 'assign-categories-to-posts', { post_ids: postIds, category_ids: [cat] }),
    ),
  };
}

// ---- Merge: 3 source categories holding `postIds` (mixed statuses) into a target.

interface MergeFixture {
  sources: number[];
  target: number;
}

async function mergeFixture(client: WordPressClient, postIds: number[]): Promise<MergeFixture> {
  const sources = [await newTerm(client, 'Bench src'), await newTerm(client, 'Bench src'), await newTerm(client, 'Bench src')];
  const target = await newTerm(client, 'Bench target');
  const results = await client.batch(postIds.map((id, i) => ({ path: `/wp/v2/posts/${id}`, body: { categories: [sources[i % 3] as number] } })));
  if (results.some((r) => !r.ok)) throw new Error('merge fixture: a post could not be prepared');
  return { sources, target };
}

async function mergeFloor(client: WordPressClient, { sources, target }: MergeFixture) {
  const posts = await client.all<PostCats>('/wp/v2/posts', { categories: sources, status: STATUSES, context: 'edit', _fields: 'id,categories' });
  const drop = new Set(sources);
  return client.batch(posts.map((p) => ({ path: `/wp/v2/posts/${p.id}`, body: { categories: [target, ...p.categories.filter((c) => !drop.has(c) && c !== target)] } })));
}

async function mergePerPost(client: WordPressClient, { sources, target }: MergeFixture) {
  const drop = new Set(sources);
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const found = await client.request<Array<{ id: number }>>({ path: '/wp/v2/posts', query: { categories: sources, status: STATUSES, context: 'edit', _fields: 'id', per_page: 100, page } });
    ids.push(...found.data.map((p) => p.id));
    if (page >= (found.totalPages ?? 1)) break;
  }
  for (const id of ids) {
    const post = await client.get<PostCats>(`/wp/v2/posts/${id}`, { context: 'edit', _fields: 'id,categories' });
    await client.post(`/wp/v2/posts/${id}`, { categories: [target, ...post.categories.filter((c) => !drop.has(c) && c !== target)] });
  }
}

export async function benchMerge(site: SandboxCredentials, postIds: number[], runs: number, reset: Reset): Promise<Record<string, Measurement>> {
  const prepare = async (context: ToolContext) => {
    await reset();
    return mergeFixture(context.client, postIds);
  };
  return {
    floor: await measure(site, runs, prepare, (c, f) => mergeFloor(c.client, f)),
    perPost: await measure(site, 1, prepare, (c, f) => mergePerPost(c.client, f)),
    tool: await measure(site, runs, prepare, (c, f) => callTool(c, 'merge-categories', { source_ids: f.sources, target_id: f.target })),
    toolRestOnly: await measure(site, runs, prepare, (c, f) =>
      callTool(withoutCompanion(c), 'merge-categories', { source_ids: f.sources, target_id: f.target }),
    ),
  };
}
