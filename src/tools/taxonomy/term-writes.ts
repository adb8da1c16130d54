import { decodeEntities, type WordPressClient, WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { confirmDeleted, confirmWritten } from '../read-back.js';
import { hiddenHolders, hiddenHoldersError } from './hidden-holders.js';
import { countPostsUsing } from './post-terms.js';
import { checkNewParent, checkSlugFree } from './term-checks.js';
import { type MetaPairs, pickMeta, termMetaBody } from './term-meta.js';
import { findSameName, getTerm, mapNameClash, type TermKind, termExists } from './terms.js';

type Term = { id: number; name: string; parent?: number };

export interface TermInput {
  name?: string;
  slug?: string;
  /** Hierarchical taxonomies only; 0 = top level. */
  parent?: number;
  description?: string;
  /** Registered term meta (term-meta.ts): checked against what the site registers for REST. */
  meta?: MetaPairs;
}

/** The fields to ask for: the kind's, and `meta` when the call writes some. */
const withMeta = (kind: TermKind, meta: unknown) => (meta ? `${kind.fields},meta` : kind.fields);

/** The record, with the meta keys the call wrote as WordPress now has them. */
function recordOf<R extends Term>(kind: TermKind<R>, raw: Record<string, unknown>, meta: Record<string, unknown> | undefined): R {
  const record = kind.toRecord(raw);
  return meta ? ({ ...record, meta: pickMeta(raw, Object.keys(meta)) } as R) : record;
}

/** Creates a term; a duplicate name comes back as `term_exists` with the existing id. */
export async function createTerm<R extends Term>(
  client: WordPressClient,
  kind: TermKind<R>,
  input: TermInput & { name: string },
): Promise<R> {
  const [, , meta] = await Promise.all([
    input.parent !== undefined ? checkNewParent(client, kind, input.parent) : undefined,
    input.slug !== undefined ? checkSlugFree(client, kind, input.slug) : undefined,
    termMetaBody(client, kind, input.meta),
  ]);
  try {
    const body = { ...input, meta };
    return recordOf(kind, await client.post<Record<string, unknown>>(kind.route, body, { _fields: withMeta(kind, meta) }), meta);
  } catch (err) {
    // The answer lost: the term is there by that name now (no term had it: WordPress refuses twins).
    const made = await confirmWritten(err, `the ${kind.noun} "${input.name}"`, async () => {
      const same = await findSameName(client, kind, input.name, { parent: input.parent ?? 0 });
      return same ? getTerm(client, kind, same.id) : undefined;
    }).catch((thrown: unknown) => thrown);
    if (made === err) throw await mapNameClash(err, client, kind, input.name, { parent: input.parent ?? 0 });
    if (made instanceof Error) throw made;
    return made as R;
  }
}

/** Changes only the given fields; refuses name clashes and parent loops before writing. */
export async function updateTerm<R extends Term>(
  client: WordPressClient,
  kind: TermKind<R>,
  id: number,
  changes: TermInput,
): Promise<R> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  if (Object.keys(given).length === 0) {
    const fields = kind.hierarchical ? 'name, slug, parent, description or meta' : 'name, slug, description or meta';
    throw new ToolError('no_changes', `Nothing to update: give ${fields}.`, {
      hint: `Pass at least one of ${fields} besides id.`,
    });
  }
  const [current, , , meta] = await Promise.all([
    getTerm(client, kind, id),
    changes.parent !== undefined ? checkNewParent(client, kind, changes.parent, id) : undefined,
    changes.slug !== undefined ? checkSlugFree(client, kind, changes.slug, id) : undefined,
    termMetaBody(client, kind, changes.meta),
  ]);
  if (meta) given.meta = meta;
  const parent = changes.parent ?? current.parent ?? 0;
  if (changes.name !== undefined) {
    // wp_update_term() keeps the old slug when only the name changes, so WordPress itself
    // would accept a second term with the same name; refuse it as wp_insert_term() would.
    const clash = await findSameName(client, kind, changes.name, { parent, excludeId: id });
    if (clash) throw termExists(kind, changes.name, clash.id);
  }
  try {
    return recordOf(
      kind,
      await client.post<Record<string, unknown>>(`${kind.route}/${id}`, given, { _fields: withMeta(kind, meta) }),
      meta,
    );
  } catch (err) {
    // The answer lost: done if the term now has every given field.
    const changed = await confirmWritten(err, `${kind.noun} ${id}`, async () => {
      const now = await getTerm(client, kind, id);
      const record = now as unknown as Record<string, unknown>;
      return Object.entries(given).every(([key, value]) => key === 'meta' || record[key] === value) ? now : undefined;
    }).catch((thrown: unknown) => thrown);
    if (changed === err) throw await mapNameClash(err, client, kind, changes.name ?? current.name, { parent, excludeId: id });
    if (changed instanceof Error) throw changed;
    return changed as R;
  }
}

/**
 * Why a term may not be deleted: the default category, posts REST cannot show, posts that use it
 * without `force`. The review (a dry run, a question) and the delete say it alike (#52.10).
 */
export function refuseDelete(
  kind: TermKind,
  term: { name: string },
  id: number,
  seen: { defaultId: number | undefined; postsAffected: number; hidden: Awaited<ReturnType<typeof hiddenHolders>>; force: boolean },
): void {
  const { defaultId, postsAffected, hidden, force } = seen;
  if (defaultId === id) {
    throw new ToolError(
      'cannot_delete_default_category',
      `"${term.name}" (id ${id}) is the site’s default category; WordPress never deletes it.`,
      {
        hint: 'Make another category the default (Settings → Writing) first, or merge its posts elsewhere with merge-categories.',
      },
    );
  }
  // Posts REST cannot show (no companion plugin): refused unless forced, and counted when forced.
  if (hidden && !force) throw hiddenHoldersError(kind, hidden, `delete ${kind.noun} ${id}`, 'pass force: true to delete it anyway (those posts lose it)');
  if (postsAffected > 0 && !force) {
    throw new ToolError(
      'term_in_use',
      `${kind.noun.charAt(0).toUpperCase()}${kind.noun.slice(1)} "${term.name}" (id ${id}) is used by ${postsAffected} post(s) (any status).`,
      {
        hint: 'Pass force: true to delete it anyway (the posts just lose it), or move the posts first.',
        details: { posts: postsAffected },
      },
    );
  }
}

export interface DeleteReport {
  deleted: { id: number; name: string };
  children_reparented?: Array<{ id: number; name: string; new_parent: number }>;
  posts_affected: number;
}

/**
 * Deletes a term. `force` is the spec's "even if assigned to posts"; WordPress itself always
 * needs force=true, as terms have no trash (it answers 501 `rest_trash_not_supported`).
 */
export async function deleteTerm(
  client: WordPressClient,
  kind: TermKind,
  id: number,
  force: boolean,
): Promise<DeleteReport> {
  // Independent reads, in parallel: an unknown id still fails with getTerm's not-found error.
  const [term, defaultId, postsAffected, children, hidden] = await Promise.all([
    getTerm(client, kind, id) as Promise<Term>,
    kind.taxonomy === 'category' ? defaultCategoryId(client) : undefined,
    countPostsUsing(client, kind, id),
    kind.hierarchical
      ? client.all<Term>(kind.route, { parent: id, _fields: 'id,name', hide_empty: false, orderby: 'id' })
      : [],
    hiddenHolders(client, kind, [id]),
  ]);
  refuseDelete(kind, term, id, { defaultId, postsAffected, hidden, force });
  const unseen = hidden?.terms.reduce((n, t) => n + t.hidden, 0) ?? 0;
  await client
    .delete(`${kind.route}/${id}`, { force: true })
    .catch((err) => confirmDeleted(client, `${kind.route}/${id}`, `${kind.noun} ${id}`, err));
  const newParent = term.parent ?? 0;
  return {
    deleted: { id, name: term.name },
    ...(kind.hierarchical && {
      children_reparented: children.map((child) => ({ id: child.id, name: decodeEntities(child.name), new_parent: newParent })),
    }),
    posts_affected: postsAffected + unseen,
  };
}

/** The `default_category` option (Settings → Writing), or undefined if settings are not readable. */
export async function defaultCategoryId(client: WordPressClient): Promise<number | undefined> {
  try {
    const settings = await client.get<{ default_category?: number }>('/wp/v2/settings', {
      _fields: 'default_category',
    });
    return settings.default_category;
  } catch (err) {
    // Settings need manage_options; without it WordPress's own refusal (403) still applies.
    if (err instanceof WordPressError && (err.status === 401 || err.status === 403)) return undefined;
    throw err;
  }
}
