import { randomBytes } from 'node:crypto';
import type { WordPressClient } from '../client/index.js';
import { browserLogin } from './account-state.js';
import type { Fixture } from './case-schema.js';
import { PlaceholderResolver } from './placeholders.js';
import { decodeHtml } from './site-state.js';

type Raw = Record<string, unknown>;

/**
 * Applies a case's fixture on top of the seeded site over plain REST (the eval's own client,
 * not the tools): roles, categories, then tags, users, posts, application passwords, logins and disabled users,
 * so each can name the ones before it.
 * Returns the created records by key, for `{{fixture.<key>.<field>}}`.
 */
export async function applyFixture(client: WordPressClient, fixture: Fixture | undefined) {
  const records = new Map<string, Record<string, unknown>>();
  if (!fixture) return records;
  const resolver = new PlaceholderResolver(client, records);
  const keep = (key: string | undefined, record: Record<string, unknown>) => {
    if (key) records.set(key, record);
  };

  for (const role of fixture.roles ?? []) {
    const capabilities = Object.fromEntries(role.capabilities.map((cap) => [cap, true]));
    try {
      await client.request({ method: 'PUT', path: `/cms-admin/v1/roles/${role.slug}`, body: { name: role.name, capabilities, create: true } });
    } catch (err) {
      throw new Error(`fixture: creating role "${role.slug}" failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  for (const item of fixture.categories ?? []) {
    const { key, ...input } = await resolver.resolve(item);
    const raw = await create(client, '/wp/v2/categories', input, `category "${item.name}"`);
    keep(key, { id: raw.id, name: decodeHtml(raw.name), slug: raw.slug, parent: raw.parent });
  }
  for (const item of fixture.tags ?? []) {
    const { key, ...input } = await resolver.resolve(item);
    const raw = await create(client, '/wp/v2/tags', input, `tag "${item.name}"`);
    keep(key, { id: raw.id, name: decodeHtml(raw.name), slug: raw.slug });
  }
  for (const item of fixture.users ?? []) {
    const { key, role, bio, disabled, password, ...input } = await resolver.resolve(item);
    const body = {
      ...input,
      password: password ?? `eval-${randomBytes(12).toString('base64url')}`,
      roles: role ? [role] : undefined,
      description: bio,
    };
    const raw = await create(client, '/wp/v2/users', body, `user "${item.username}"`);
    if (disabled) await client.post(`/cms-admin/v1/users/${raw.id}/disable`, { reason: 'eval fixture' });
    keep(key, { id: raw.id, username: raw.username, email: item.email, name: decodeHtml(raw.name) });
  }
  for (const item of fixture.posts ?? []) {
    const { key, ...input } = await resolver.resolve(item);
    const body = { status: 'publish', content: `Eval fixture post: ${input.title}.`, ...input };
    const raw = await create(client, '/wp/v2/posts', body, `post "${item.title}"`);
    keep(key, { id: raw.id, title: input.title });
  }
  for (const item of fixture.app_passwords ?? []) {
    const { user, name } = await resolver.resolve(item);
    await create(client, `/wp/v2/users/${user}/application-passwords`, { name }, `application password "${name}"`);
  }
  for (const item of fixture.logins ?? []) {
    const { user, user_agent } = await resolver.resolve(item);
    await browserLogin(client, Number(user), user_agent);
  }
  for (const user of fixture.disabled_users ?? []) {
    const id = await resolver.resolve(user);
    await create(client, `/cms-admin/v1/users/${id}/disable`, { reason: 'eval fixture' }, `disabled user ${id}`);
  }
  return records;
}

async function create(client: WordPressClient, route: string, body: unknown, what: string): Promise<Raw> {
  try {
    return await client.post<Raw>(route, body, { context: 'edit' });
  } catch (err) {
    throw new Error(`fixture: creating ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
