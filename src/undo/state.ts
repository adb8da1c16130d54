import { chunk, decodeEntities, mapLimit, type WordPressClient, WordPressError } from '../client/index.js';
import { readPostTerms } from '../tools/taxonomy/post-terms.js';
import { readTrashable } from './restore-trash.js';
import { readNetworkUsers } from './restore-network.js';
import { readRoles, readUserCapsState } from './restore-roles.js';
import type { TaxonomyRef, TermState, UndoScope, UndoState, UserState } from './types.js';
import type { CreateLocator } from '../tools/undo-data.js';
import { toUserState, USER_STATE_FIELDS } from '../tools/users/user-state.js';

export type { TaxonomyRef, TermState, UndoScope, UndoState, UserState } from './types.js';
export { taxonomyRef } from '../tools/undo-data.js';


/** Reads every object of the scope from the site (a request per 100 terms, posts or users). */
export async function readState(client: WordPressClient, scope: UndoScope): Promise<UndoState> {
  const state: UndoState = {};
  const { taxonomy } = scope;
  if (taxonomy) state.taxonomy = taxonomy;
  const [terms, posts, users, trashed, networkUsers] = await Promise.all([
    taxonomy && scope.terms?.length ? readTerms(client, taxonomy, scope.terms) : undefined,
    taxonomy && scope.posts?.length ? readPosts(client, taxonomy, scope.posts) : undefined,
    scope.users?.length ? readUsersKnown(client, scope.users, scope.knownUsers) : undefined,
    scope.trashOf === undefined ? undefined : readTrashable(client, scope.trashOf),
    scope.networkUsers?.length ? readNetworkUsers(client, scope.networkUsers) : undefined,
  ]);
  if (networkUsers) state.network_users = networkUsers;
  // Roles first in the state (an undo recreates them before their accounts get them back).
  if (scope.roles?.length) state.roles = await readRoles(client, scope.roles);
  if (scope.userCaps?.length) state.user_caps = await readUserCapsState(client, scope.userCaps);
  if (terms) state.terms = terms;
  if (posts) state.posts = posts;
  if (users) state.users = users;
  if (trashed) state.trashed = trashed;
  if (scope.notRestorable?.length) state.not_restorable = [...scope.notRestorable];
  if (scope.also) state.also = await readState(client, scope.also);
  return state;
}

export async function readTerms(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  ids: readonly number[],
): Promise<Record<string, TermState | null>> {
  const unique = [...new Set(ids)];
  const pages = await mapLimit(chunk(unique, 100), client.concurrency, (include) =>
    client.get<Array<Record<string, unknown>>>(taxonomy.route, {
      include,
      _fields: TERM_STATE_FIELDS,
      hide_empty: false,
      per_page: 100,
      context: 'edit',
    }),
  );
  const found = new Map(pages.flat().map((raw) => [Number(raw.id), toTermState(raw)]));
  return Object.fromEntries(unique.map((id) => [String(id), found.get(id) ?? null]));
}

/**
 * The objects a create would have made, found by name (undo-data.ts CreateLocator): a term whose
 * name or slug is the one asked for, in the scope's taxonomy; a user with that login.
 */
export async function locateCreated(
  client: WordPressClient,
  taxonomy: TaxonomyRef | undefined,
  locator: CreateLocator,
): Promise<{ terms?: number[]; users?: number[] }> {
  const out: { terms?: number[]; users?: number[] } = {};
  const { term, user } = locator;
  if (term && taxonomy && (term.name || term.slug)) {
    const found = await client.get<Array<Record<string, unknown>>>(taxonomy.route, {
      ...(term.slug ? { slug: term.slug } : { search: term.name }),
      _fields: 'id,name,slug',
      hide_empty: false,
      per_page: 100,
    });
    const name = term.name?.trim().toLowerCase();
    out.terms = found
      .filter((t) => (term.slug ? t.slug === term.slug : decodeEntities(String(t.name)).trim().toLowerCase() === name))
      .map((t) => Number(t.id));
  }
  if (locator.termSlugs?.length && taxonomy) {
    // 100 slugs a request (WordPress takes a list); a slug is unique in its taxonomy.
    const pages = await mapLimit(chunk([...locator.termSlugs], 100), client.concurrency, (slug) =>
      client.get<Array<Record<string, unknown>>>(taxonomy.route, { slug, _fields: 'id,slug', hide_empty: false, per_page: 100 }),
    );
    out.terms = [...(out.terms ?? []), ...pages.flat().map((t) => Number(t.id))];
  }
  if (user) {
    const found = await client.get<Array<Record<string, unknown>>>('/wp/v2/users', { search: user.username, context: 'edit', _fields: 'id,username', per_page: 100 });
    out.users = found.filter((u) => String(u.username).toLowerCase() === user.username.toLowerCase()).map((u) => Number(u.id));
  }
  if (locator.newUsers?.usernames.length) {
    const wanted = new Set(locator.newUsers.usernames.map((login) => login.toLowerCase()));
    const made: number[] = [];
    // Newest first, until an account as old as the write's start: only what came after it.
    for (let page = 1; ; page++) {
      const batch = await client.get<Array<Record<string, unknown>>>('/wp/v2/users', {
        orderby: 'id',
        order: 'desc',
        per_page: 100,
        page,
        context: 'edit',
        _fields: 'id,username',
      });
      const newer = batch.filter((u) => Number(u.id) > (locator.newUsers?.after ?? 0));
      for (const u of newer) if (wanted.has(String(u.username).toLowerCase())) made.push(Number(u.id));
      if (batch.length < 100 || newer.length < batch.length) break;
    }
    out.users = [...(out.users ?? []), ...made];
  }
  return out;
}

/**
 * A term's fields undo keeps; `meta` is its registered meta shown in REST (#34.3), and
 * `cms_meta_keys` (companion plugin 0.5.3) which of those keys the term really has a row for.
 */
export const TERM_STATE_FIELDS = 'id,name,slug,description,parent,meta,cms_meta_keys';

export function toTermState(raw: Record<string, unknown>): TermState {
  // No meta registered: REST gives `[]` (PHP's empty array); nothing to keep.
  const shown = raw.meta && typeof raw.meta === 'object' && !Array.isArray(raw.meta) ? raw.meta : undefined;
  // REST shows every registered key, its default where the term has no row: with the plugin's
  // list only the keys that exist are kept, so a recreated term gets no others (#47.10).
  const stored = Array.isArray(raw.cms_meta_keys) ? new Set(raw.cms_meta_keys.map(String)) : undefined;
  const meta = shown && stored ? Object.fromEntries(Object.entries(shown).filter(([key]) => stored.has(key))) : shown;
  return {
    name: decodeEntities(String(raw.name ?? '')),
    slug: String(raw.slug ?? ''),
    description: String(raw.description ?? ''),
    parent: Number(raw.parent ?? 0),
    // With the plugin an empty set is kept too: the term had no meta, and that is compared.
    ...(meta && (stored || Object.keys(meta).length) ? { meta: meta as Record<string, unknown> } : {}),
  };
}

async function readPosts(client: WordPressClient, taxonomy: TaxonomyRef, ids: readonly number[]) {
  const posts = await readPostTerms(client, taxonomy, [...new Set(ids)]);
  return Object.fromEntries(posts.map((post) => [String(post.id), [...post.terms].sort((a, b) => a - b)]));
}

/** Users as readUsers reads them; those the scope already read (`known`) are not asked again. */
async function readUsersKnown(client: WordPressClient, ids: readonly number[], known: UndoScope['knownUsers']) {
  const unread = ids.filter((id) => !known || !(String(id) in known));
  const read = unread.length ? await readUsers(client, unread) : {};
  return Object.fromEntries(ids.map((id) => [String(id), read[String(id)] ?? known?.[String(id)] ?? null]));
}


async function readUsers(client: WordPressClient, ids: readonly number[]): Promise<Record<string, UserState | null>> {
  const unique = [...new Set(ids)];
  const pages = await mapLimit(chunk(unique, 100), client.concurrency, (include) =>
    client.get<Array<Record<string, unknown>>>('/wp/v2/users', {
      include,
      context: 'edit',
      _fields: USER_STATE_FIELDS,
      per_page: 100,
    }),
  );
  const found = new Map(pages.flat().map((raw) => [Number(raw.id), toUserState(raw)]));
  // The collection leaves out accounts the caller may not edit; ask for those one by one.
  for (const id of unique.filter((id) => !found.has(id))) {
    try {
      found.set(
        id,
        toUserState(await client.get(`/wp/v2/users/${id}`, { context: 'edit', _fields: USER_STATE_FIELDS })),
      );
    } catch (err) {
      if (!(err instanceof WordPressError && (err.status === 404 || err.code === 'rest_user_invalid_id'))) throw err;
    }
  }
  return Object.fromEntries(unique.map((id) => [String(id), found.get(id) ?? null]));
}

/** Whether two states of one object are the same (what undo compares; usernames never change). */
export function sameTerm(a: TermState | null | undefined, b: TermState | null | undefined): boolean {
  if (!a || !b) return (a ?? null) === (b ?? null);
  return (
    a.name === b.name && a.slug === b.slug && a.description === b.description && a.parent === b.parent && sameMeta(a, b)
  );
}

/** Registered meta: compared where both readings have it (entries before #34.3 do not). */
export function sameMeta(a: TermState, b: TermState): boolean {
  if (!a.meta || !b.meta) return true;
  const keys = new Set([...Object.keys(a.meta), ...Object.keys(b.meta)]);
  return [...keys].every((k) => JSON.stringify(a.meta?.[k] ?? null) === JSON.stringify(b.meta?.[k] ?? null));
}

export function sameUser(a: UserState | null | undefined, b: UserState | null | undefined): boolean {
  if (!a || !b) return (a ?? null) === (b ?? null);
  const disabled = a.disabled === null || b.disabled === null || a.disabled === b.disabled;
  const extra = (['first_name', 'last_name', 'url'] as const).every((f) => a[f] === undefined || b[f] === undefined || a[f] === b[f]);
  return a.email === b.email && a.name === b.name && a.bio === b.bio && sameList(a.roles, b.roles) && disabled && extra;
}

export function sameList(
  a: readonly (number | string)[] | undefined,
  b: readonly (number | string)[] | undefined,
): boolean {
  const x = [...(a ?? [])].sort();
  const y = [...(b ?? [])].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
