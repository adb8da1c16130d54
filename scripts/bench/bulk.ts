import { chunk, mapLimit, type WordPressClient } from '../../src/client/index.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import type { ToolContext } from '../../src/tools/index.js';
import { withoutCompanion } from '../../test/helpers/site.js';
import { callTool, type Measurement, measure } from './measure.js';

const STATUSES = 'publish,draft,pending,private,future';
type PostCats = { id: number; categories: number[] };

let counter = 0;
const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${++counter}`;

async function newCategory(client: WordPressClient, prefix: string): Promise<number> {
  return (await client.post<{ id: number }>('/wp/v2/categories', { name: uniqueName(prefix) })).id;
}

/** Post ids of the large site, any status, oldest first. */
export async function allPostIds(client: WordPressClient): Promise<number[]> {
  const posts = await client.all<{ id: number }>('/wp/v2/posts', { status: STATUSES, context: 'edit', _fields: 'id', orderby: 'id', order: 'asc' });
  return posts.map((p) => p.id);
}

// ---- Bulk assign: add one category to N posts, keeping their categories.

/** The floor: read the posts in pages of 100, write them in batches of 25. */
async function assignFloor(client: WordPressClient, postIds: number[], categoryId: number) {
  const pages = await mapLimit(chunk(postIds, 100), 4, (include) =>
    client.get<PostCats[]>('/wp/v2/posts', { include, status: STATUSES, context: 'edit', _fields: 'id,categories', per_page: 100 }),
  );
  return client.batch(pages.flat().map((p) => ({ path: `/wp/v2/posts/${p.id}`, body: { categories: [...p.categories, categoryId] } })));
}

/** What simple clients do: GET then POST, one post at a time. */
async function assignPerPost(client: WordPressClient, postIds: number[], categoryId: number) {
  for (const id of postIds) {
    const post = await client.get<PostCats>(`/wp/v2/posts/${id}`, { context: 'edit', _fields: 'id,categories' });
    await client.post(`/wp/v2/posts/${id}`, { categories: [...post.categories, categoryId] });
  }
}

/** Restores the large site before each run (untimed), so every approach starts from the same state. */
export type Reset = () => Promise<void>;

export async function benchAssign(site: SandboxCredentials, postIds: number[], runs: number, reset: Reset): Promise<Record<string, Measurement>> {
  const prepare = async (context: ToolContext) => {
    await reset();
    return newCategory(context.client, 'Bench assign');
  };
  return {
    floor: await measure(site, runs, prepare, (c, cat) => assignFloor(c.client, postIds, cat)),
    perPost: await measure(site, 1, prepare, (c, cat) => assignPerPost(c.client, postIds, cat)),
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
  const sources = [await newCategory(client, 'Bench src'), await newCategory(client, 'Bench src'), await newCategory(client, 'Bench src')];
  const target = await newCategory(client, 'Bench target');
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
