import { describe, expect, it } from 'vitest';
import { invoke } from '../../src/call/index.js';
import { runCli } from '../helpers/cli.js';
import { testContext, unique, wp } from '../helpers/site.js';
import { makeUser } from '../wordpress/users/helpers.js';

const rolesOf = async (id: number) => (await wp().get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles;
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** #52.1: a login or an email where a user id goes, a slug where a term id goes; unknown and ambiguous names are errors listing candidates. */
describe('names where ids go', () => {
  it('a user by login and by email (invoke key=value and the JSON envelope); read back from WordPress', async () => {
    const [one, two] = [await makeUser(), await makeUser()];
    const byLogin = await runCli(['invoke', 'set-user-role', `id=${one.username}`, 'role=editor']);
    expect(byLogin.code, byLogin.stdout).toBe(0);
    expect(await rolesOf(one.id)).toEqual(['editor']);
    const byEmail = await runCli(['invoke', JSON.stringify({ tool: 'set-user-role', params: { id: two.email.toUpperCase(), role: 'author' } })]);
    expect(byEmail.code, byEmail.stdout).toBe(0);
    expect(await rolesOf(two.id)).toEqual(['author']);
    // delete-user: the account by email, its heir by login, as wp-cli takes them.
    const gone = await runCli(['invoke', 'delete-user', `id=${one.email}`, `reassign_to=${two.username}`]);
    expect(gone.code, gone.stdout).toBe(0);
    expect((await wp().get<Array<{ id: number }>>('/wp/v2/users', { include: [one.id], context: 'edit' })).length).toBe(0);
  });

  it('a term by slug (its taxonomy from the tool or the call), in a list too; read back', async () => {
    const name = unique('Slug cat');
    const cat = await wp().post<{ id: number; slug: string }>('/wp/v2/categories', { name });
    const run = await runCli(['invoke', 'update-category', `id=${cat.slug}`, 'description=By slug']);
    expect(run.code, run.stdout).toBe(0);
    expect((await wp().get<{ description: string }>(`/wp/v2/categories/${cat.id}`)).description).toBe('By slug');
    const post = await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Slug post'), status: 'draft' });
    const assign = await runCli(['invoke', 'assign-categories-to-posts', `post_ids=[${post.id}]`, `category_ids=["${cat.slug}"]`]);
    expect(assign.code, assign.stdout).toBe(0);
    expect((await wp().get<{ categories: number[] }>(`/wp/v2/posts/${post.id}`, { context: 'edit' })).categories).toContain(cat.id);
    // The envelope of every surface (tool shell, MCP's invoke): the same step.
    const tag = await wp().post<{ id: number; slug: string }>('/wp/v2/tags', { name: unique('Slug tag') });
    const out = await invoke({ tool: 'update-term', params: { taxonomy: 'post_tag', id: tag.slug, description: 'Through invoke()' } }, testContext());
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect((await wp().get<{ description: string }>(`/wp/v2/tags/${tag.id}`)).description).toBe('Through invoke()');
  });

  it('an unknown name is name_not_found, an ambiguous one name_ambiguous listing each id; nothing is written', async () => {
    const missing = await runCli(['invoke', 'set-user-role', `id=${slugOf(unique('nobody'))}`, 'role=editor']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('name_not_found');
    const name = unique('Twice');
    const top = await wp().post<{ id: number }>('/wp/v2/categories', { name: `${name} parent` });
    const a = await wp().post<{ id: number }>('/wp/v2/categories', { name, slug: `${slugOf(name)}-a` });
    const b = await wp().post<{ id: number }>('/wp/v2/categories', { name, slug: `${slugOf(name)}-b`, parent: top.id });
    const run = await runCli(['invoke', 'update-category', `id=${name}`, 'description=Which one?']);
    expect(run.code).toBe(1);
    const error = JSON.parse(run.stdout).error;
    expect(error.code).toBe('name_ambiguous');
    expect(error.message).toContain(`id ${a.id}`);
    expect(error.message).toContain(`id ${b.id}`);
    for (const id of [a.id, b.id]) expect((await wp().get<{ description: string }>(`/wp/v2/categories/${id}`)).description).toBe('');
  });

  it('a call refused whatever its names stand for (another param invalid, a write in a read-only session) is refused before any request', async () => {
    const context = testContext();
    const before = context.client.stats.requests;
    const invalid = await invoke({ tool: 'update-category', params: { id: 'uncategorized', parent: 'no-such-slug', meta: [1] } }, context);
    expect(invalid.ok ? '' : invalid.error.code).toBe('invalid_params');
    expect(invalid.ok ? '' : invalid.error.message).toContain('meta');
    const readOnly = await invoke({ tool: 'delete-category', params: { id: 'uncategorized' } }, context, { readOnly: true });
    expect(readOnly.ok ? '' : readOnly.error.code).toBe('tool_not_allowed');
    expect(context.client.stats.requests).toBe(before);
  });
});
