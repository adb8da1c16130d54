import { decodeEntities, type WordPressClient } from '../../client/index.js';
import { idRanges } from '../answers/bulk.js';
import { ToolError } from '../tool-error.js';
import { readPostTerms } from './post-terms.js';
import { checkNewParent, checkSlugFree } from './term-checks.js';
import type { TermInput } from './term-writes.js';
import { findSameName, getTerm, missingTermIds, type TermKind, termExists, termNotFound } from './terms.js';

/**
 * Dry runs (`dry_run: true`) of the term writes, by kind: what the call would change, read from
 * the site, with the same refusals the write would meet (a name taken, a parent missing or a
 * loop, an unknown id). Only dry runs read this much: the writes' reviews stay cheap.
 */
type Preview = { would: string } & Record<string, unknown>;

const quoted = (name: string) => `"${name}"`;
const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

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
  return { would: `create the ${kind.noun} ${quoted(input.name)}${where}` };
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
  if (changes.description !== undefined) {
    parts.push(changes.description ? `set its description to ${quoted(short(changes.description))}` : 'clear its description');
  }
  const what = parts.length ? parts.join('; ') : 'change nothing (the values are the current ones)';
  return { would: `${kind.noun} ${quoted(current.name)} (id ${id}): ${what}` };
}

/** Adding terms to posts: which posts would change, which already have them, which ids are not posts. */
export async function previewAddTerms(
  client: WordPressClient,
  kind: TermKind,
  postIds: readonly number[],
  termIds: readonly number[],
): Promise<Preview> {
  const terms = [...new Set(termIds)];
  const missing = await missingTermIds(client, kind, terms);
  if (missing.length) throw termNotFound(kind, missing);
  const [named, posts] = await Promise.all([
    client.all<{ id: number; name: string }>(kind.route, { include: terms, _fields: 'id,name', hide_empty: false, per_page: 100 }),
    readPostTerms(client, kind, [...new Set(postIds)]),
  ]);
  const names = named.map((term) => quoted(decodeEntities(term.name))).join(', ');
  const found = new Set(posts.map((post) => post.id));
  const toUpdate = posts.filter((post) => terms.some((term) => !post.terms.includes(term))).map((post) => post.id);
  const notFound = [...new Set(postIds)].filter((id) => !found.has(id));
  const unchanged = posts.length - toUpdate.length;
  const notes = [
    unchanged ? `${unchanged} already have them` : '',
    notFound.length ? `${notFound.length} id(s) are not posts` : '',
  ].filter(Boolean);
  return {
    would: `add the ${kind.plural} ${names} to ${toUpdate.length} post(s)${notes.length ? ` (${notes.join('; ')})` : ''}`,
    posts_to_update: toUpdate.length,
    update_ids: idRanges(toUpdate),
    posts_unchanged: unchanged,
    ...(notFound.length && { not_found_ids: idRanges(notFound) }),
  };
}
