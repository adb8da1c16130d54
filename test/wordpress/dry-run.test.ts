import { describe, expect, it } from 'vitest';
import { memoryJournal } from '../../src/undo/journal.js';
import { findTool, reviewCall, selectTools, tools } from '../../src/call/index.js';
import { call, callOk, testContext, unique, wordPressAtLeast, wp } from '../helpers/site.js';
import { productsTitled } from './abilities/helpers.js';
import { makeCategory, makePosts, makeTag, readTerm } from './taxonomy/fixtures.js';
import {
  formLogin,
  mailTo,
  makeAppPassword,
  makeUser,
  newIdentity,
  newPassword,
  readUser,
  wpPhp,
} from './users/helpers.js';

/**
 * `dry_run: true` on every write tool: the answer names what would change (read from the site)
 * and the site is the same afterwards, read back through wp(), not through the tools.
 */
interface Case {
  /** The WordPress the tool needs (run-ability: the Abilities API of 6.9); before it, the dry run refuses as the call does. */
  needs?: { version: string; code: string };
  /** Makes the fixture; returns the params, the words the preview must name, and a reading of the site. */
  setup(): Promise<{ params: Record<string, unknown>; names: (string | number)[]; read: () => Promise<unknown> }>;
}

const term = (route: 'categories' | 'tags', id: number) => () => readTerm(route, id);
const postTerms = (ids: number[]) => () =>
  Promise.all(ids.map((id) => wp().get<Record<string, unknown>>(`/wp/v2/posts/${id}`, { context: 'edit', _fields: 'id,categories,tags' })));
const searchTerms = (route: 'categories' | 'tags', name: string) => () =>
  wp().get<unknown[]>(`/wp/v2/${route}`, { search: name, hide_empty: false, _fields: 'id' });
const user = (id: number) => async () => ({
  ...(await readUser(id)),
  key: (await wpPhp(`echo get_userdata(${id})->user_activation_key;`)).trim(),
});
const userNamed = (username: string) => () =>
  wp().get<unknown[]>('/wp/v2/users', { search: username, context: 'edit', _fields: 'id' });

const roleRead = (slug: string) => () => wpPhp(`echo json_encode(wp_roles()->roles['${slug}'] ?? null);`);
/** A custom role for a dry run (removed with the seeded snapshot the suite restores). */
async function dryRole(): Promise<string> {
  const slug = `dry_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await wpPhp(`add_role('${slug}', 'Dry role', ['read' => true, 'edit_posts' => true]);`);
  return slug;
}

const CASES: Record<string, Case> = {
  'create-category': {
    async setup() {
      const parent = await makeCategory('Dry parent');
      const name = unique('Dry new cat');
      return { params: { name, parent: parent.id }, names: [name, parent.name], read: searchTerms('categories', name) };
    },
  },
  'create-tag': {
    async setup() {
      const name = unique('Dry new tag');
      return { params: { name }, names: [name], read: searchTerms('tags', name) };
    },
  },
  'update-category': {
    async setup() {
      const [cat, parent] = [await makeCategory('Dry upd'), await makeCategory('Dry new parent')];
      const name = unique('Dry renamed');
      return { params: { id: cat.id, name, parent: parent.id }, names: [cat.name, name, parent.name], read: term('categories', cat.id) };
    },
  },
  'update-tag': {
    async setup() {
      const tag = await makeTag('Dry upd tag');
      const name = unique('Dry renamed tag');
      return { params: { id: tag.id, name, description: 'new words' }, names: [tag.name, name, 'new words'], read: term('tags', tag.id) };
    },
  },
  'delete-category': {
    async setup() {
      const cat = await makeCategory('Dry del');
      return { params: { id: cat.id }, names: [cat.name], read: term('categories', cat.id) };
    },
  },
  'delete-tag': {
    async setup() {
      const tag = await makeTag('Dry del tag');
      return { params: { id: tag.id }, names: [tag.name], read: term('tags', tag.id) };
    },
  },
  'merge-categories': {
    async setup() {
      const [source, target] = [await makeCategory('Dry src'), await makeCategory('Dry tgt')];
      const posts = await makePosts([{ categories: [source.id] }, { categories: [source.id] }]);
      const read = async () => [await term('categories', source.id)(), await postTerms(posts)()];
      return { params: { source_ids: [source.id], target_id: target.id, delete_sources: true }, names: [target.id, ...posts], read };
    },
  },
  'assign-categories-to-posts': {
    async setup() {
      const cat = await makeCategory('Dry assign');
      const posts = await makePosts([{}, {}]);
      return { params: { post_ids: posts, category_ids: [cat.id] }, names: [cat.name, '2 post'], read: postTerms(posts) };
    },
  },
  'assign-tags-to-posts': {
    async setup() {
      const tag = await makeTag('Dry assign tag');
      const posts = await makePosts([{}, { tags: [tag.id] }]);
      return { params: { post_ids: posts, tag_ids: [tag.id] }, names: [tag.name, '1 post', '1 already'], read: postTerms(posts) };
    },
  },
  'create-term': {
    async setup() {
      const name = unique('Dry genre');
      const read = () => wp().get<unknown[]>('/wp/v2/genres', { search: name, hide_empty: false, _fields: 'id' });
      return { params: { taxonomy: 'genre', name, slug: 'dry-genre-slug' }, names: [name, 'genre term'], read };
    },
  },
  'update-term': {
    async setup() {
      const cat = await wp().post<{ id: number; name: string }>('/shop/v1/product-categories', { name: unique('Dry shop') });
      const read = () => wp().get(`/shop/v1/product-categories/${cat.id}`, { context: 'edit' });
      return { params: { taxonomy: 'product_cat', id: cat.id, slug: 'dry-shop-slug' }, names: [cat.name, 'dry-shop-slug'], read };
    },
  },
  'delete-term': {
    async setup() {
      const genre = await wp().post<{ id: number; name: string }>('/wp/v2/genres', { name: unique('Dry del genre') });
      const read = () => wp().get(`/wp/v2/genres/${genre.id}`, { context: 'edit' });
      return { params: { taxonomy: 'genre', id: genre.id }, names: [genre.name], read };
    },
  },
  'assign-terms-to-posts': {
    async setup() {
      const genre = await wp().post<{ id: number; name: string }>('/wp/v2/genres', { name: unique('Dry assign genre') });
      const posts = await makePosts([{}, {}]);
      return { params: { taxonomy: 'genre', post_ids: posts, term_ids: [genre.id] }, names: [genre.name, '2 post'], read: postTerms(posts) };
    },
  },
  'remove-terms-from-posts': {
    async setup() {
      const tag = await makeTag('Dry remove tag');
      const posts = await makePosts([{ tags: [tag.id] }, {}]);
      return { params: { taxonomy: 'post_tag', post_ids: posts, term_ids: [tag.id] }, names: [tag.name, '1 post'], read: postTerms(posts) };
    },
  },
  'merge-terms': {
    async setup() {
      const [source, target] = [await makeTag('Dry merge src'), await makeTag('Dry merge tgt')];
      const posts = await makePosts([{ tags: [source.id] }]);
      const read = async () => [await term('tags', source.id)(), await postTerms(posts)()];
      return { params: { taxonomy: 'post_tag', source_ids: [source.id], target_id: target.id, delete_sources: true }, names: [target.id, ...posts], read };
    },
  },
  'prune-terms': {
    async setup() {
      const tag = await makeTag('Dry prune');
      return { params: { taxonomy: 'post_tag', search: tag.name }, names: [tag.name], read: term('tags', tag.id) };
    },
  },
  'recount-terms': {
    async setup() {
      const tag = await makeTag('Dry recount');
      return { params: { taxonomy: 'post_tag', term_ids: [tag.id] }, names: ['post_tag'], read: term('tags', tag.id) };
    },
  },
  'set-terms-parent': {
    async setup() {
      const [child, parent] = [await makeCategory('Dry child'), await makeCategory('Dry parent')];
      return { params: { taxonomy: 'category', term_ids: [child.id], parent: parent.id }, names: [child.name, parent.name], read: term('categories', child.id) };
    },
  },
  'migrate-terms': {
    async setup() {
      const cat = await makeCategory('Dry migrate');
      const posts = await makePosts([{ categories: [cat.id] }]);
      const read = async () => [await term('categories', cat.id)(), await postTerms(posts)()];
      return { params: { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [cat.id] }, names: [cat.name], read };
    },
  },
  'create-user': {
    async setup() {
      const { username, email } = newIdentity('dryuser');
      return { params: { username, email, password: newPassword(), role: 'editor' }, names: [username, 'editor'], read: userNamed(username) };
    },
  },
  'update-user': {
    async setup() {
      const u = await makeUser({ prefix: 'dryupd' });
      const email = `${u.username}.new@example.org`;
      return { params: { id: u.id, email }, names: [u.username, u.email, email], read: user(u.id) };
    },
  },
  'disable-user': {
    async setup() {
      const u = await makeUser({ prefix: 'drydis' });
      return { params: { id: u.id }, names: [u.username, 'disable'], read: user(u.id) };
    },
  },
  'enable-user': {
    async setup() {
      const u = await makeUser({ prefix: 'dryen' });
      await callOk('disable-user', { id: u.id });
      return { params: { id: u.id }, names: [u.username, 'enable'], read: user(u.id) };
    },
  },
  'reset-user-password': {
    async setup() {
      const u = await makeUser({ prefix: 'dryreset' });
      const read = async () => [await user(u.id)(), (await mailTo(u.email)).length];
      return { params: { id: u.id }, names: [u.username, u.email], read };
    },
  },
  'set-user-role': {
    async setup() {
      const u = await makeUser({ prefix: 'dryrole' });
      return { params: { id: u.id, role: 'editor' }, names: [u.username, 'editor', 'subscriber'], read: user(u.id) };
    },
  },
  'set-users-role': {
    async setup() {
      const [a, b] = [await makeUser({ prefix: 'drybulk' }), await makeUser({ prefix: 'drybulk' })];
      const read = async () => [await readUser(a.id), await readUser(b.id)];
      return { params: { user_ids: [a.id, b.id], to_role: 'author' }, names: [a.username, b.username, 'author'], read };
    },
  },
  'import-users': {
    async setup() {
      const { username, email } = newIdentity('dryimport');
      const read = async () => ({ found: await userNamed(username)(), mails: await mailTo(email) });
      return { params: { csv: `user_login,user_email\n${username},${email}\n`, role: 'author' }, names: [username, 'create'], read };
    },
  },
  'delete-user': {
    async setup() {
      const [u, heir] = [await makeUser({ prefix: 'drydel' }), await makeUser({ prefix: 'dryheir', roles: ['author'] })];
      return { params: { id: u.id, reassign_to: heir.id }, names: [u.username, heir.username], read: user(u.id) };
    },
  },
  'revoke-app-passwords': {
    async setup() {
      const u = await makeUser({ prefix: 'dryrevoke' });
      await makeAppPassword(u.id);
      const read = () => wp().get(`/wp/v2/users/${u.id}/application-passwords`);
      return { params: { user_id: u.id }, names: [u.username, '1 application password'], read };
    },
  },
  'undo-change': {
    async setup() {
      // The shared context gets a journal from here on, so there is a change to undo.
      const context = testContext();
      context.journal ??= memoryJournal();
      const cat = await makeCategory('Dry undo');
      await callOk('update-category', { id: cat.id, name: unique('Dry undo renamed') });
      const entry = (await context.journal.entries()).at(-1)!;
      return { params: { change_id: entry.change_id }, names: [entry.change_id, `category ${cat.id}`], read: term('categories', cat.id) };
    },
  },
  // Roles and capabilities (#50): the role as WordPress stores it, read through PHP.
  'create-role': {
    async setup() {
      const slug = `dry_${Date.now().toString(36)}`;
      return { params: { slug, name: 'Dry role', clone_from: 'author', add_capabilities: ['moderate_comments'] }, names: [slug, 'author', 'moderate_comments'], read: roleRead(slug) };
    },
  },
  'update-role': {
    async setup() {
      const slug = await dryRole();
      return { params: { slug, add_capabilities: ['list_users'] }, names: [slug, 'list_users', 'see every account'], read: roleRead(slug) };
    },
  },
  'delete-role': {
    async setup() {
      const slug = await dryRole();
      const u = await makeUser({ prefix: 'dryroleuser', roles: [slug] });
      return { params: { slug, move_users_to: 'author' }, names: [slug, 'author', '1 account'], read: async () => [await roleRead(slug)(), await readUser(u.id)] };
    },
  },
  'update-user-capabilities': {
    async setup() {
      const u = await makeUser({ prefix: 'drycaps', roles: ['author'] });
      return { params: { user_id: u.id, add_capabilities: ['moderate_comments'] }, names: [u.username, 'moderate_comments'], read: () => wpPhp(`echo json_encode(get_userdata(${u.id})->caps);`) };
    },
  },
  'run-ability': {
    needs: { version: '6.9', code: 'abilities_unavailable' },
    async setup() {
      const title = unique('Dry ability product');
      return { params: { name: 'cms-sandbox/product-create', input: { title } }, names: [title, 'cms-sandbox/product-create', 'POST'], read: () => productsTitled(title) };
    },
  },
  'log-out-user': {
    async setup() {
      const u = await makeUser({ prefix: 'drylogout' });
      expect((await formLogin(u.username, u.password)).ok).toBe(true);
      const read = async () => (await wpPhp(`echo count(WP_Session_Tokens::get_instance(${u.id})->get_all());`)).trim();
      return { params: { user_id: u.id }, names: [u.username, '1 login session'], read };
    },
  },
};

describe('dry_run on every write tool', () => {
  it('every write tool of the registry has a case here', () => {
    // A single site's write tools; the network tools' dry runs are in test/wordpress/network/.
    const writes = selectTools(tools, {})
      .filter((tool) => !tool.annotations.readOnly)
      .map((tool) => tool.name);
    expect(Object.keys(CASES).sort()).toEqual(writes.sort());
  });

  it.each(Object.entries(CASES))('%s: names the change, writes nothing', async (_name, { setup, needs }) => {
    const { params, names, read } = await setup();
    const before = await read();
    if (needs && !wordPressAtLeast(needs.version)) {
      expect(await call(_name, { ...params, dry_run: true })).toMatchObject({ ok: false, error: { code: needs.code } });
      expect(await read()).toEqual(before);
      return;
    }
    const preview = await callOk(_name, { ...params, dry_run: true });
    expect(preview.dry_run).toBe(true);
    // Whether the call itself would ask a person: the review's answer, the same as on every surface.
    expect(preview.needs_approval, _name).toBe(
      (await reviewCall(findTool(_name)!, testContext(), params)).approval === 'required',
    );
    const text = JSON.stringify(preview);
    for (const name of names) expect(text, `${_name} preview: ${text}`).toContain(String(name));
    expect(await read()).toEqual(before);
  });

  it('a dry run of a call that cannot succeed answers its error (the same as the call would)', async () => {
    const gone = await makeCategory('Dry gone');
    await wp().delete(`/wp/v2/categories/${gone.id}`, { force: true });
    const outcome = await call('delete-category', { id: gone.id, dry_run: true });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'category_not_found' } });
    const taken = await makeTag('Dry taken');
    expect(await call('create-tag', { name: taken.name, dry_run: true })).toMatchObject({
      ok: false,
      error: { code: 'term_exists', details: { existing_id: taken.id } },
    });
  });
});
