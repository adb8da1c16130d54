import { decodeEntities, type WordPressClient, WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import type { ListSource } from '../answers/page.js';
import { CATEGORY_FIELDS, type Category, TAG_FIELDS, type Tag, toCategory, toTag } from './records.js';

/**
 * What differs between taxonomies, so each operation is written once: categories and tags
 * are fixed kinds, any other taxonomy's kind is read from its REST record (taxonomies.ts).
 */
export interface TermKind<R extends { id: number; name: string } = { id: number; name: string }> {
  /** In messages: "category", "tag", "genre term". */
  noun: string;
  plural: string;
  /** Error code stem: `category_not_found`, `tag_not_found`, `term_not_found`. */
  codeStem: 'category' | 'tag' | 'term';
  /** REST collection route, `/<rest_namespace>/<rest_base>`. */
  route: string;
  /** The posts query parameter and field: the taxonomy's `rest_base` (`categories`, `tags`, `genres`). */
  postsParam: string;
  /** The taxonomy's slug in WordPress. */
  taxonomy: string;
  /** How to list these terms, for hints: "get-cms-tags", "list-terms (taxonomy genre)". */
  listTool: string;
  fields: string;
  hierarchical: boolean;
  toRecord(raw: Record<string, unknown>): R;
}

export const CATEGORY: TermKind<Category> = {
  noun: 'category',
  plural: 'categories',
  codeStem: 'category',
  route: '/wp/v2/categories',
  postsParam: 'categories',
  taxonomy: 'category',
  listTool: 'get-cms-categories',
  fields: CATEGORY_FIELDS,
  hierarchical: true,
  toRecord: toCategory,
};

export const TAG: TermKind<Tag> = {
  noun: 'tag',
  plural: 'tags',
  codeStem: 'tag',
  route: '/wp/v2/tags',
  postsParam: 'tags',
  taxonomy: 'post_tag',
  listTool: 'get-cms-tags',
  fields: TAG_FIELDS,
  hierarchical: false,
  toRecord: toTag,
};

export interface TermFilters {
  search?: string;
  parent?: number;
  hide_empty?: boolean;
}

/**
 * A kind's terms matching `filters`, ordered by id, a window at a time. WordPress's `search`
 * matches name or slug by substring (WP_Term_Query:
 * https://github.com/WordPress/wordpress-develop/blob/6.8/src/wp-includes/class-wp-term-query.php).
 * Concise records leave out `description`; `full` keeps it and adds registered term `meta`.
 */
export function termSource<R extends { id: number; name: string }>(
  client: WordPressClient,
  kind: TermKind<R>,
  filters: TermFilters,
  full: boolean,
): ListSource<R> {
  const query = {
    // Full records add registered term meta (show_in_rest), when the site has any.
    _fields: full ? `${kind.fields},meta` : kind.fields.replace(',description', ''),
    orderby: 'id',
    order: 'asc',
    hide_empty: filters.hide_empty ?? false,
    search: filters.search && storedForm(filters.search),
    parent: filters.parent,
  };
  const toRecords = (items: Array<Record<string, unknown>>) => {
    const records = items.map((raw) => {
      const record = kind.toRecord(raw);
      const meta = raw.meta;
      // No meta registered: REST gives `[]` (PHP's empty array); left out.
      return full && meta && typeof meta === 'object' && !Array.isArray(meta) && Object.keys(meta).length
        ? { ...record, meta }
        : record;
    });
    if (!full) for (const record of records) delete (record as { description?: string }).description;
    return records;
  };
  if (kind.hierarchical && filters.hide_empty) {
    // WordPress keeps empty parents of used categories, filtering after its count: X-WP-Total
    // then counts every category and pages are cut from the filtered list (WP_Term_Query::get_terms,
    // "Make sure we show empty categories that have children"). Read them all and page here.
    return {
      key: (term) => term.id,
      fetch: async ({ offset, count }) => {
        const all = toRecords(await client.all<Record<string, unknown>>(kind.route, query));
        return { items: all.slice(offset, offset + count), total: all.length };
      },
    };
  }
  return {
    key: (term) => term.id,
    fetch: async (window) => {
      const { items, total } = await client.window<Record<string, unknown>>(kind.route, query, window);
      return { items: toRecords(items), total };
    },
  };
}

/**
 * WordPress stores term names HTML-escaped (`A &amp; B`, sanitize_term_field's `pre_term_name`
 * filters) and `search` compares the stored text, so "A & B" must be searched as "A &amp; B".
 */
function storedForm(search: string): string {
  return search.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function termNotFound(kind: TermKind, ids: readonly number[], what: string = kind.noun): ToolError {
  const list = ids.join(', ');
  return new ToolError(`${kind.codeStem}_not_found`, `No ${what} with id ${list}.`, {
    hint: `List ${kind.plural} with ${kind.listTool} to find the right id.`,
    details: { missing_ids: [...ids] },
  });
}

/** One term, or a not-found ToolError the model can act on. */
export async function getTerm<R extends { id: number; name: string }>(
  client: WordPressClient,
  kind: TermKind<R>,
  id: number,
  what?: string,
): Promise<R> {
  try {
    return kind.toRecord(await client.get<Record<string, unknown>>(`${kind.route}/${id}`, { _fields: kind.fields }));
  } catch (err) {
    if (err instanceof WordPressError && err.status === 404) throw termNotFound(kind, [id], what);
    throw err;
  }
}

/** The ids among `ids` that are not terms of this kind (one request per 100 ids). */
export async function missingTermIds(
  client: WordPressClient,
  kind: Pick<TermKind, 'route'>,
  ids: readonly number[],
): Promise<number[]> {
  if (!ids.length) return [];
  const found = await client.all<{ id: number }>(kind.route, {
    include: ids,
    _fields: 'id',
    hide_empty: false,
    per_page: 100,
  });
  const existing = new Set(found.map((term) => term.id));
  return ids.filter((id) => !existing.has(id));
}

/**
 * A term of this kind with the same name (case-insensitive, as WordPress compares), other
 * than `excludeId`; for categories only among the children of `parent`, as wp_insert_term()
 * allows the same name under different parents.
 */
export async function findSameName(
  client: WordPressClient,
  kind: TermKind,
  name: string,
  options: { parent?: number; excludeId?: number } = {},
): Promise<{ id: number; name: string } | undefined> {
  // Names are stored HTML-escaped (`A &amp; B`), so search by the longest plain word and
  // compare decoded names here.
  const word = name.split(/[^\p{L}\p{N}]+/u).sort((a, b) => b.length - a.length)[0] ?? '';
  const query = { _fields: 'id,name,parent', hide_empty: false, orderby: 'id', ...(word ? { search: word } : {}) };
  const candidates = await client.all<{ id: number; name: string; parent?: number }>(kind.route, query);
  const wanted = name.trim().toLowerCase();
  const match = candidates.find(
    (term) =>
      term.id !== options.excludeId &&
      decodeEntities(term.name).trim().toLowerCase() === wanted &&
      (!kind.hierarchical || options.parent === undefined || (term.parent ?? 0) === options.parent),
  );
  return match && { id: match.id, name: decodeEntities(match.name) };
}

export function termExists(kind: TermKind, name: string, existingId: number | undefined): ToolError {
  const where = kind.hierarchical ? ' with this parent' : '';
  return new ToolError(
    'term_exists',
    `A ${kind.noun} named "${name}" already exists${where}${existingId ? ` (id ${existingId})` : ''}.`,
    {
      hint: existingId ? `Use id ${existingId} or choose another name.` : 'Choose another name.',
      details: existingId ? { existing_id: existingId } : undefined,
    },
  );
}

/** WordPress's answers to a name clash (`term_exists`, `duplicate_term_slug`) as one ToolError with the existing id. */
export async function mapNameClash(
  err: unknown,
  client: WordPressClient,
  kind: TermKind,
  name: string,
  options: { parent?: number; excludeId?: number } = {},
): Promise<unknown> {
  if (!(err instanceof WordPressError) || (err.code !== 'term_exists' && err.code !== 'duplicate_term_slug'))
    return err;
  const data = err.data as { term_id?: unknown } | undefined;
  const existingId = Number(data?.term_id) || (await findSameName(client, kind, name, options))?.id;
  return termExists(kind, name, existingId);
}
