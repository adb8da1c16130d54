import type { WordPressClient } from '../../src/client/index.js';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import { callTool, type Measurement, measure } from './measure.js';

/** One benchmark case per tool: untimed fixtures, then the timed call. */
interface ToolCase {
  tool: string;
  note: string;
  prepare?: (client: WordPressClient) => Promise<Record<string, unknown>>;
  params?: Record<string, unknown>;
  runs?: number;
}

let n = 0;
const name = (prefix: string) => `${prefix} ${Date.now().toString(36)}${++n}`;
const category = async (c: WordPressClient) => (await c.post<{ id: number }>('/wp/v2/categories', { name: name('Bench cat') })).id;
const tag = async (c: WordPressClient) => (await c.post<{ id: number }>('/wp/v2/tags', { name: name('Bench tag') })).id;
const user = async (c: WordPressClient) => {
  const login = name('bench').replace(/\W/g, '_').toLowerCase();
  return (await c.post<{ id: number }>('/wp/v2/users', { username: login, email: `${login}@example.com`, password: `Bench-${Date.now().toString(36)}-Pass!` })).id;
};

export function toolCases(postIds: number[]): ToolCase[] {
  const twenty = postIds.slice(0, 20);
  return [
    { tool: 'get-cms-categories', note: '1,000+ categories' },
    { tool: 'get-cms-tags', note: '250+ tags' },
    { tool: 'list-taxonomies', note: '' },
    { tool: 'create-category', note: '', prepare: async () => ({ name: name('Bench new cat') }) },
    { tool: 'create-tag', note: '', prepare: async () => ({ name: name('Bench new tag') }) },
    { tool: 'update-category', note: 'rename', prepare: async (c) => ({ id: await category(c), name: name('Renamed') }) },
    { tool: 'update-tag', note: 'rename', prepare: async (c) => ({ id: await tag(c), name: name('Renamed tag') }) },
    { tool: 'delete-category', note: 'unused category', prepare: async (c) => ({ id: await category(c) }) },
    { tool: 'delete-tag', note: 'unused tag', prepare: async (c) => ({ id: await tag(c) }) },
    {
      tool: 'merge-categories',
      note: '2 sources, 20 posts, delete sources',
      prepare: async (c) => {
        const [a, b, target] = [await category(c), await category(c), await category(c)];
        await c.batch(twenty.map((id, i) => ({ path: `/wp/v2/posts/${id}`, body: { categories: [i % 2 ? a : b] } })));
        return { source_ids: [a, b], target_id: target, delete_sources: true };
      },
    },
    { tool: 'assign-categories-to-posts', note: '20 posts', prepare: async (c) => ({ post_ids: twenty, category_ids: [await category(c)] }) },
    { tool: 'assign-tags-to-posts', note: '20 posts', prepare: async (c) => ({ post_ids: twenty, tag_ids: [await tag(c)] }) },
    { tool: 'list-users', note: '320+ users' },
    { tool: 'create-user', note: '', prepare: async () => { const u = name('bnew').replace(/\W/g, '_').toLowerCase(); return { username: u, email: `${u}@example.com`, password: `Bench-${Date.now().toString(36)}-Pass!` }; } },
    { tool: 'update-user', note: 'display name', prepare: async (c) => ({ id: await user(c), name: 'Bench Renamed' }) },
    { tool: 'disable-user', note: '', prepare: async (c) => ({ id: await user(c), reason: 'bench' }) },
    { tool: 'enable-user', note: '', prepare: async (c) => { const id = await user(c); await c.post(`/cms-admin/v1/users/${id}/disable`, { reason: 'bench' }); return { id }; } },
    { tool: 'reset-user-password', note: 'email (captured)', prepare: async (c) => ({ id: await user(c) }) },
    { tool: 'set-user-role', note: '', prepare: async (c) => ({ id: await user(c), role: 'editor' }) },
    { tool: 'list-user-roles', note: '' },
    // Taxonomy clean-up (#51); the 5,000-term runs are `npm run bench:cleanup`.
    { tool: 'find-duplicate-terms', note: 'every tag', params: { taxonomy: 'post_tag' } },
    { tool: 'recount-terms', note: 'every category', params: { taxonomy: 'category' } },
    { tool: 'prune-terms', note: '1 unused tag', prepare: async (c) => { const id = await tag(c); const t = await c.get<{ name: string }>(`/wp/v2/tags/${id}`, { _fields: 'name' }); return { taxonomy: 'post_tag', search: t.name }; } },
    { tool: 'set-terms-parent', note: '2 categories', prepare: async (c) => ({ taxonomy: 'category', term_ids: [await category(c), await category(c)], parent: await category(c) }) },
    {
      tool: 'migrate-terms',
      note: '1 category on 20 posts → tag',
      prepare: async (c) => {
        const id = await category(c);
        await c.batch(twenty.map((post) => ({ path: `/wp/v2/posts/${post}`, body: { categories: [id] } })));
        return { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [id] };
      },
    },
  ];
}

export async function benchTools(site: SandboxCredentials, postIds: number[], runs: number): Promise<Array<ToolCase & Measurement>> {
  const rows: Array<ToolCase & Measurement> = [];
  for (const c of toolCases(postIds)) {
    const m = await measure(
      site,
      c.runs ?? runs,
      async (context) => (c.prepare ? c.prepare(context.client) : (c.params ?? {})),
      (context, params) => callTool(context, c.tool, params),
    );
    rows.push({ ...c, ms: m.ms, requests: m.requests, bytes: m.bytes, runs: m.runs });
  }
  return rows;
}
