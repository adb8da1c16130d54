import { decodeEntities, type WordPressClient } from '../../client/index.js';
import { idRanges } from '../answers/bulk.js';
import { ToolError } from '../tool-error.js';
import { readPostTerms } from './post-terms.js';
import { checkNewParent, checkSlugFree } from './term-checks.js';
import type { TermInput } from './term-writes.js';
import { termMetaBody } from './term-meta.js';
import { findSameName, getTerm, missingTermIds, type TermKind, termExists, termNotFound } from './terms.js';

/**
 * Dry runs (`dry_run: true`) of the term writes, by kind: what the call would change, read from
 * the site, with the same refusals the write would meet (a name taken, a parent missing or a
 * loop, an unknown id). Only dry runs read this much: the writes' reviews stay cheap.
 */
type Preview = { would: string } & Record<string, unknown>;

const quoted = (name: string) => `"${name}"`;
const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

const metaPhrase = (meta: Record<string, unknown>) =>
  `meta ${Object.entries(meta).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')}`;

async function parentPhrase(client: WordPressClient, kind: TermKind, parent: number): Promise<string> {
  if (parent === 0) return 'at top level';
  const term = await getTerm(client, kind, parent, `parent ${kind.noun}`);
  return `under ${quoted(term.name)} (id ${parent})`;
}

export async function previewCreateTerm(client: WordPressClient, kind: TermKind, input: TermInput & { name: string }): Promise<Preview> {
  if (input.parent !== undefined) await checkNewParent(client, kind, input.parent);
  if (input.slug !== undefined) await checkSlugFree(client, kind, input.slug);
  const clash = await findSameName(client, kind, input.name, { parent: input.parent ?? 0 });
  if (clash) throw termExists(kind, input.name, clash.id);
  const where = kind.hierarchical ? ` ${await parentPhrase(client, kind, input.parent ?? 0)}` : '';
  const meta = await termMetaBody(client, kind, input.meta);
  return { would: `create the ${kind.noun} ${quoted(input.name)}${where}${meta ? ` with ${metaPhrase(meta)}` : ''}` };
}

export async function previewUpdateTerm(client: WordPressClient, kind: TermKind, id: number, changes: TermInput): Promise<Preview> {
  if (!Object.values(changes).some((value) => value !== undefined)) {
    throw new ToolError('no_changes', `Nothing to update: give ${kind.hierarchical ? 'name, slug, parent or description' : 'name, slug or description'}.`);
  }
  const current = (await getTerm(client, kind, id)) as { name: string; parent?: number; description?: string };
  if (changes.parent !== undefined) await checkNewParent(client, kind, changes.parent, id);
  if (changes.slug !== undefined) await checkSlugFree(client, kind, changes.slug, id);
  const parent = changes.parent ?? current.parent ?? 0;
  const parts: string[] = [];
  if (changes.name !== undefined && changes.name !== current.name) {
    const clash = await findSameName(client, kind, changes.name, { parent, excludeId: id });
    if (clash) throw termExists(kind, changes.name, clash.id);
    parts.push(`rename it to ${quoted(changes.name)}`);
  }
  if (changes.parent !== undefined && changes.parent !== (current.parent ?? 0)) {
    const [from, to] = await Promise.all([
      parentPhrase(client, kind, current.parent ?? 0),
      parentPhrase(client, kind, changes.parent),
    ]);
    parts.push(`move it from ${from} to ${to}`);
  }
  if (changes.slug !== undefined) parts.push(`set its slug to ${quoted(changes.slug)}`);
  const meta = await termMetaBody(client, kind, changes.meta);
  if (meta) parts.push(`set ${metaPhrase(meta)}`);
  if (changes.description !== undefined) {
    parts.push(changes.description ? `set its description to ${quoted(short(changes.description))}` : 'clear its description');
  }
  const what = parts.length ? parts.join('; ') : 'change nothing (the values are the current ones)';
  return { would: `${kind.noun} ${quoted(current.name)} (id ${id}): ${what}` };
}

/** Adding terms to posts: which posts would change, which already have them, which ids are not posts. */
export function previewAddTerms(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  termIds: readonly number[],
): Promise<Preview> {
  return previewPostTerms(client, kind, postIds, { add: termIds, remove: [] });
}

/**
 * A change of posts' terms (terms to add, terms to remove), as the bulk write path takes it:
 * which posts would change, which are already as asked, which ids are not posts. Unknown term
 * ids are refused, as the write refuses them.
 */
export async function previewPostTerms(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  change: { add: readonly number[]; remove: readonly number[] },
): Promise<Preview> {
  const [add, remove] = [[...new Set(change.add)], [...new Set(change.remove)]];
  const missing = await missingTermIds(client, kind, [...add, ...remove]);
  if (missing.length) throw termNotFound(kind, missing);
  const ids = [...new Set(postIds)];
  const [named, posts] = await Promise.all([
    client.all<{ id: number; name: string }>(kind.route, {
      include: [...add, ...remove],
      _fields: 'id,name',
      hide_empty: false,
      per_page: 100,
    }),
    readPostTerms(client, kind, ids),
  ]);
  const nameOf = new Map(named.map((term) => [term.id, quoted(decodeEntities(term.name))]));
  const names = (list: number[]) => list.map((id) => nameOf.get(id) ?? `id ${id}`).join(', ');
  const found = new Set(posts.map((post) => post.id));
  const changes = (terms: number[]) => add.some((t) => !terms.includes(t)) || remove.some((t) => terms.includes(t));
  const toUpdate = posts.filter((post) => changes(post.terms)).map((post) => post.id);
  const notFound = ids.filter((id) => !found.has(id));
  const unchanged = posts.length - toUpdate.length;
  const what = [
    add.length ? `add the ${kind.plural} ${names(add)}` : '',
    remove.length ? `remove the ${kind.plural} ${names(remove)}` : '',
  ].filter(Boolean);
  const notes = [
    unchanged ? `${unchanged} already ${remove.length ? 'as asked' : 'have them'}` : '',
    notFound.length ? `${notFound.length} id(s) are not posts` : '',
  ].filter(Boolean);
  return {
    would: `${what.join(' and ')} on ${toUpdate.length} post(s)${notes.length ? ` (${notes.join('; ')})` : ''}`,
    posts_to_update: toUpdate.length,
    update_ids: idRanges(toUpdate),
    posts_unchanged: unchanged,
    ...(notFound.length && { not_found_ids: idRanges(notFound) }),
  };
}
