import fc from 'fast-check';
import { findTool } from '../../src/call/index.js';
import { wp } from '../helpers/site.js';

/**
 * Schema-valid calls that reach WordPress and must come back as clear errors (writes) or
 * results (reads) without writing: missing ids, odd names, weak passwords, refused operations
 * on real ids. Also the valid writes a read-only session must refuse.
 */

export type Call = [tool: string, params: Record<string, unknown>];
export type ExistingIds = Awaited<ReturnType<typeof existingIds>>;

/** Calls mixing real and missing ids; five writes to one read. */
export function siteCalls(site: ExistingIds): fc.Arbitrary<Call> {
  const missingId = fc.oneof(
    fc.constantFrom(2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER),
    fc.integer({ min: 10_000_000, max: 2_147_483_647 }),
  );
  const oddName = fc
    .oneof(
      fc.constantFrom(
        '😀'.repeat(50),
        '👩‍👩‍👧‍👦 team',
        'x'.repeat(10_000),
        '\u202eevil',
        'İstanbul ß',
        '<b>bold</b> & co',
        "O'Brien; DROP TABLE wp_users",
      ),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    )
    .filter((s) => s.trim() !== '');
  // role and search take at most 1,000 characters, email 100 (longer is invalid_params, tried above).
  const shortOddName = oddName.filter((s) => s.length <= 900);
  const weak = fc.constantFrom('short', 'aaaaaaaaaaaaaaaa', ' padded-password-here ', 'back\\slash-password');
  const pick = (ids: number[]) => fc.constantFrom(...ids);
  const writes: Array<fc.Arbitrary<Call>> = [
    fc
      .tuple(missingId, oddName, fc.option(pick(site.categories), { nil: undefined }))
      .map(([id, name, parent]) => ['update-category', { id, name, parent }]),
    fc.tuple(missingId, oddName, oddName).map(([id, name, description]) => ['update-tag', { id, name, description }]),
    fc
      .tuple(fc.constantFrom('delete-category', 'delete-tag'), missingId, fc.boolean())
      .map(([tool, id, force]) => [tool, { id, force }]),
    fc
      .tuple(pick(site.categories), missingId, fc.boolean())
      .map(([source, target, del]) => [
        'merge-categories',
        { source_ids: [source], target_id: target, delete_sources: del },
      ]),
    fc
      .tuple(pick(site.categories), missingId, pick(site.categories))
      .filter(([a, , c]) => a !== c)
      .map(([source, missing, target]) => [
        'merge-categories',
        { source_ids: [source, missing], target_id: target, delete_sources: true },
      ]),
    fc
      .tuple(fc.subarray(site.posts, { minLength: 1, maxLength: 30 }), pick(site.categories), missingId)
      .map(([posts, cat, missing]) => [
        'assign-categories-to-posts',
        { post_ids: posts, category_ids: [cat, missing] },
      ]),
    fc
      .tuple(fc.subarray(site.posts, { minLength: 1, maxLength: 30 }), missingId)
      .map(([posts, missing]) => ['assign-tags-to-posts', { post_ids: posts, tag_ids: [missing] }]),
    fc.tuple(oddName, missingId).map(([name, parent]) => ['create-category', { name, parent }]),
    fc.tuple(pick(site.categories), missingId).map(([id, parent]) => ['update-category', { id, parent }]),
    pick(site.categories).map((id) => ['update-category', { id, parent: id }]),
    fc.constant(['delete-category', { id: site.defaultCategory, force: true }]),
    pick(site.usedCategories).map((id) => ['delete-category', { id }]),
    fc
      .tuple(fc.constantFrom('update-user', 'disable-user', 'enable-user', 'reset-user-password'), missingId, oddName)
      .map(([tool, id, name]) => [tool, tool === 'update-user' ? { id, name } : { id }]),
    fc.tuple(missingId, fc.constantFrom('editor', 'subscriber')).map(([id, role]) => ['set-user-role', { id, role }]),
    fc
      .tuple(pick(site.users), shortOddName)
      .map(([id, role]) => ['set-user-role', { id, role: `no-such-role-${role}` }]),
    fc.tuple(pick(site.users), weak).map(([id, password]) => ['update-user', { id, password }]),
    fc.tuple(pick(site.users), oddName).map(([id, junk]) => ['update-user', { id, email: `not-an-email ${junk}` }]),
    fc
      .tuple(fc.nat(), weak)
      .map(([n, password]) => ['create-user', { username: `fuzz_${n}`, email: `fuzz_${n}@example.org`, password }]),
    fc
      .tuple(
        fc.nat(),
        oddName.filter((s) => s.length <= 80),
      )
      .map(([n, junk]) => [
        'create-user',
        { username: `fuzz_${n}`, email: `no-at-sign-${junk}`, password: `Fz-${n}-correct-horse-battery` },
      ]),
    fc.constant(['disable-user', { id: site.me }]),
    fc.constant(['set-user-role', { id: site.me, role: 'subscriber' }]),
  ];
  const reads: Array<fc.Arbitrary<Call>> = [
    fc
      .tuple(shortOddName, fc.option(shortOddName, { nil: undefined }))
      .map(([search, role]) => ['list-users', { search, role }]),
    oddName.map((date) => ['list-users', { registered_after: date }]),
    fc.constantFrom<[string, Record<string, unknown>]>(
      ['get-cms-categories', {}],
      ['get-cms-tags', {}],
      ['list-taxonomies', {}],
      ['list-user-roles', {}],
      ['merge-categories', { source_ids: [site.categories[0] as number], target_id: 2_147_483_647, dry_run: true }],
    ),
  ];
  return fc.oneof({ arbitrary: fc.oneof(...writes), weight: 5 }, { arbitrary: fc.oneof(...reads), weight: 1 });
}

/** Ids that exist on the seeded site, for calls that mix real and missing ids. */
export async function existingIds() {
  const client = wp();
  const me = (await client.connect()).id;
  const { default_category: defaultCategory } = await client.get<{ default_category: number }>('/wp/v2/settings', {
    _fields: 'default_category',
  });
  const categories = await client.all<{ id: number; count: number }>('/wp/v2/categories', {
    hide_empty: false,
    _fields: 'id,count',
  });
  const users = await client.all<{ id: number }>('/wp/v2/users', { context: 'edit', _fields: 'id' });
  const posts = await client.get<Array<{ id: number }>>('/wp/v2/posts', {
    per_page: 100,
    _fields: 'id',
    status: ['publish', 'draft'],
    context: 'edit',
  });
  return {
    me,
    defaultCategory,
    categories: categories.map((c) => c.id).filter((id) => id !== defaultCategory),
    usedCategories: categories.filter((c) => c.count > 0 && c.id !== defaultCategory).map((c) => c.id),
    users: users.map((u) => u.id).filter((id) => id !== me),
    posts: posts.map((p) => p.id),
  };
}

/** Schema-valid params for each write tool (the read-only filter must refuse them all). */
export function validWrite(tool: string, text: string, id: number): Record<string, unknown> {
  const password = `Fz-${text}-${id}-correct-horse-battery`;
  const byTool: Record<string, Record<string, unknown>> = {
    'create-category': { name: text },
    'create-tag': { name: text },
    'update-category': { id, name: text },
    'update-tag': { id, name: text },
    'delete-category': { id, force: true },
    'delete-tag': { id, force: true },
    'merge-categories': { source_ids: [id + 1], target_id: id, delete_sources: true },
    'assign-categories-to-posts': { post_ids: [id], category_ids: [id] },
    'assign-tags-to-posts': { post_ids: [id], tag_ids: [id] },
    'create-user': { username: `fz${id}`, email: `fz${id}@example.org`, password },
    'update-user': { id, name: text },
    'disable-user': { id },
    'enable-user': { id },
    'reset-user-password': { id },
    'set-user-role': { id, role: 'subscriber' },
    'create-term': { taxonomy: 'genre', name: text },
    'update-term': { taxonomy: 'genre', id, name: text },
    'delete-term': { taxonomy: 'genre', id, force: true },
    'assign-terms-to-posts': { taxonomy: 'genre', post_ids: [id], term_ids: [id] },
    'remove-terms-from-posts': { taxonomy: 'genre', post_ids: [id], term_ids: [id] },
    'merge-terms': { taxonomy: 'genre', source_ids: [id + 1], target_id: id, delete_sources: true },
    'delete-user': { id, reassign_to: id + 1 },
    'revoke-app-passwords': { user_id: id },
    'log-out-user': { user_id: id },
    'undo-change': { change_id: `c${id}` },
    'create-role': { slug: `fz_${id}`, name: text, capabilities: ['read'] },
    'update-role': { slug: 'author', add_capabilities: ['read'] },
    'delete-role': { slug: `fz_${id}` },
    'update-user-capabilities': { user_id: id, add_capabilities: ['read'] },
    'set-users-role': { user_ids: [id], to_role: 'subscriber' },
    'import-users': { csv: `user_login,user_email\nfz${id},fz${id}@example.org\n` },
    'prune-terms': { taxonomy: 'genre' },
    'migrate-terms': { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: [id] },
    'recount-terms': { taxonomy: 'genre' },
    'set-terms-parent': { taxonomy: 'genre', term_ids: [id + 1], parent: id },
    'run-ability': { name: 'core/get-site-info' },
  };
  const params = byTool[tool];
  if (!params || !(findTool(tool)?.schema.safeParse(params).success ?? false))
    throw new Error(`no valid params for ${tool}`);
  return params;
}
