import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perPost } from '../../helpers/listing.js';
import { createContext } from '../../../src/config.js';
import type { ToolContext } from '../../../src/call/index.js';
import { callIn, callOkIn, testSite, unique, withoutCompanion, wp } from '../../helpers/site.js';

/**
 * Categories and tags on pages and a custom post type (`book`), as register_taxonomy_for_object_type()
 * makes them: the sandbox's mu-plugin does it while `cms_sandbox_shared_terms` is on.
 */
beforeAll(async () => {
  await wp().post('/wp/v2/settings', { cms_sandbox_shared_terms: true });
});
afterAll(async () => {
  await wp().post('/wp/v2/settings', { cms_sandbox_shared_terms: false });
});

const fresh = (): ToolContext => createContext(testSite());
const category = async (name: string) => (await wp().post<{ id: number }>('/wp/v2/categories', { name: unique(name) })).id;
const tag = async (name: string) => (await wp().post<{ id: number }>('/wp/v2/tags', { name: unique(name) })).id;
async function item(route: string, body: Record<string, unknown>): Promise<number> {
  return (await wp().post<{ id: number }>(route, { title: unique('Item'), ...body })).id;
}
async function termsOf(route: string, id: number, field = 'categories'): Promise<number[]> {
  const post = await wp().get<Record<string, number[]>>(`${route}/${id}`, { context: 'edit', _fields: field });
  return (post[field] ?? []).sort((a, b) => a - b);
}
const exists = (route: string, id: number) =>
  wp().get(`${route}/${id}`, { context: 'edit' }).then(
    () => true,
    () => false,
  );

describe('categories and tags on pages, custom post types, every status', () => {
  it('delete-category without force refuses a category used only by a draft page; with force it deletes', async () => {
    const id = await category('PageOnly');
    await item('/wp/v2/pages', { status: 'draft', categories: [id] });
    const refused = await callIn(fresh(), 'delete-category', { id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'term_in_use' } });
    expect(await exists('/wp/v2/categories', id)).toBe(true);
    const done = await callOkIn(fresh(), 'delete-category', { id, force: true });
    expect(done.posts_affected).toBe(1);
    expect(await exists('/wp/v2/categories', id)).toBe(false);
  });

  it('delete-category without force refuses a category used only by a trashed post', async () => {
    const id = await category('TrashOnly');
    const post = await item('/wp/v2/posts', { status: 'publish', categories: [id] });
    await wp().delete(`/wp/v2/posts/${post}`); // to the trash
    const refused = await callIn(fresh(), 'delete-category', { id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'term_in_use' } });
    expect(await exists('/wp/v2/categories', id)).toBe(true);
  });

  it('delete-tag without force refuses a tag used only by a book', async () => {
    const id = await tag('BookOnly');
    await item('/wp/v2/books', { status: 'private', tags: [id] });
    expect(await callIn(fresh(), 'delete-tag', { id })).toMatchObject({ ok: false, error: { code: 'term_in_use' } });
    expect(await exists('/wp/v2/tags', id)).toBe(true);
  });

  it.each([
    ['with the companion plugin', fresh],
    ['through /batch/v1', () => withoutCompanion(fresh())],
  ])('merge-categories (%s) moves posts, pages and books of every status, then deletes the source', async (_, make) => {
    const [source, target] = [await category('MergeSrc'), await category('MergeDst')];
    const future = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 19);
    const items = [
      ['/wp/v2/posts', await item('/wp/v2/posts', { status: 'future', date: future, categories: [source] })],
      ['/wp/v2/posts', await item('/wp/v2/posts', { status: 'draft', categories: [source] })],
      ['/wp/v2/pages', await item('/wp/v2/pages', { status: 'publish', categories: [source] })],
      ['/wp/v2/pages', await item('/wp/v2/pages', { status: 'pending', categories: [source] })],
      ['/wp/v2/books', await item('/wp/v2/books', { status: 'private', categories: [source] })],
      ['/wp/v2/books', await item('/wp/v2/books', { status: 'publish', categories: [source] })],
    ] as const;
    const trashed = await item('/wp/v2/pages', { status: 'publish', categories: [source] });
    await wp().delete(`/wp/v2/pages/${trashed}`);
    const all = [...items.map(([, id]) => id), trashed].sort((a, b) => a - b);

    const context = make();
    const plan = await callOkIn(context, 'merge-categories', { source_ids: [source], target_id: target, dry_run: true });
    expect(plan.posts_to_move).toBe(7);
    expect([...plan.post_ids].sort((a: number, b: number) => a - b)).toEqual(all);

    const report = await callOkIn(context, 'merge-categories', {
      source_ids: [source],
      target_id: target,
      delete_sources: true,
    });
    expect(report).toMatchObject({ posts_moved: 7, posts_failed: [], sources_deleted: [source] });
    for (const [route, id] of [...items, ['/wp/v2/pages', trashed] as const]) {
      expect(await termsOf(route, id), `${route}/${id}`).toEqual([target]);
    }
    const statuses = await Promise.all(
      items.map(([route, id]) => wp().get<{ status: string }>(`${route}/${id}`, { context: 'edit', _fields: 'status' })),
    );
    expect(statuses.map((s) => s.status)).toEqual(['future', 'draft', 'publish', 'pending', 'private', 'publish']);
    expect(await exists('/wp/v2/categories', source)).toBe(false);
  });

  it.each([
    ['with the companion plugin', fresh],
    ['through /batch/v1', () => withoutCompanion(fresh())],
  ])('assign-categories-to-posts (%s) takes page and book ids', async (_, make) => {
    const id = await category('AssignTypes');
    const page = await item('/wp/v2/pages', { status: 'draft' });
    const book = await item('/wp/v2/books', { status: 'publish' });
    const report = perPost(
      await callOkIn(make(), 'assign-categories-to-posts', { post_ids: [page, book], category_ids: [id] }),
    );
    expect(report.updated).toEqual([page, book].sort((a, b) => a - b));
    expect(await termsOf('/wp/v2/pages', page)).toContain(id);
    expect(await termsOf('/wp/v2/books', book)).toContain(id);
  });
});

describe('companion plugin by version', () => {
  it('a plugin older than post-terms needs (0.1.0 reported no version): the core API instead, with a warning', async () => {
    const context = fresh();
    const { client } = context;
    const index = client.index.bind(client);
    client.index = async () => {
      const { cms_admin_companion: _, ...rest } = await index();
      return rest as Awaited<ReturnType<typeof index>>;
    };
    const id = await category('OldPlugin');
    const page = await item('/wp/v2/pages', { status: 'draft' });
    const report = perPost(await callOkIn(context, 'assign-categories-to-posts', { post_ids: [page], category_ids: [id] }));
    expect(report.updated).toEqual([page]);
    expect(await termsOf('/wp/v2/pages', page)).toContain(id);
    expect(client.warnings.join(' ')).toContain('Update the companion plugin (have 0.1.0, need 0.3.0 for post-terms)');
  });
});
