import { readMailLog } from '../../src/sandbox/index.js';
import { wp } from '../helpers/site.js';

/**
 * Everything a stray write could change, read straight from WordPress: counts, every term,
 * every user with roles and disabled state, every post's status and terms, and captured mail.
 * Two equal snapshots mean nothing was written in between.
 */
export async function siteState(): Promise<Record<string, unknown>> {
  const client = wp();
  const statuses = ['publish', 'draft', 'pending', 'private', 'future'];
  const [categories, tags, users, posts, mail] = await Promise.all([
    client.all<Record<string, unknown>>('/wp/v2/categories', {
      hide_empty: false,
      orderby: 'id',
      _fields: 'id,name,slug,parent,description,count',
    }),
    client.all<Record<string, unknown>>('/wp/v2/tags', {
      hide_empty: false,
      orderby: 'id',
      _fields: 'id,name,slug,description,count',
    }),
    client.all<Record<string, unknown>>('/wp/v2/users', {
      context: 'edit',
      orderby: 'id',
      _fields: 'id,username,name,email,roles,description,cms_disabled',
    }),
    client.all<Record<string, unknown>>('/wp/v2/posts', {
      status: statuses,
      context: 'edit',
      orderby: 'id',
      order: 'asc',
      _fields: 'id,status,categories,tags,modified_gmt',
    }),
    readMailLog({ home: process.env.CMS_SANDBOX_HOME, name: process.env.CMS_TEST_SANDBOX }),
  ]);
  const counts = {
    categories: await client.count('/wp/v2/categories', { hide_empty: false }),
    tags: await client.count('/wp/v2/tags', { hide_empty: false }),
    users: await client.count('/wp/v2/users', { context: 'edit' }),
    posts: await client.count('/wp/v2/posts', { status: statuses, context: 'edit' }),
  };
  return { counts, categories, tags, users, posts, mails: mail.length };
}

/** Own properties of the built-in prototypes, to see that no input polluted them. */
export function prototypeFingerprint(): string {
  const describe = (o: object) => Reflect.ownKeys(o).map(String).sort().join(',');
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map(describe).join('|');
}
