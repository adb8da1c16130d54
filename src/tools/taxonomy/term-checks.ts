import { decodeEntities, type WordPressClient, WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import type { TermKind } from './terms.js';

type Term = { id: number; name: string; parent?: number };

const capital = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

export function notHierarchical(kind: TermKind): ToolError {
  return new ToolError('not_hierarchical', `The taxonomy ${kind.taxonomy} is flat: its terms have no parent.`, {
    hint: 'Leave out parent.',
  });
}

/**
 * Refuses a parent that does not exist, or one that would make a loop (the term itself or one
 * of its descendants), and any parent on a flat taxonomy. WordPress would not refuse a loop:
 * wp_check_term_hierarchy_for_loops() silently turns such a parent into 0
 * (https://developer.wordpress.org/reference/functions/wp_check_term_hierarchy_for_loops/).
 */
export async function checkNewParent(
  client: WordPressClient,
  kind: TermKind,
  parent: number,
  childId?: number,
): Promise<void> {
  if (!kind.hierarchical) throw notHierarchical(kind);
  if (parent === 0) return;
  const noun = capital(kind.noun);
  if (parent === childId) {
    throw new ToolError('parent_cycle', `${noun} ${childId} cannot be its own parent.`, {
      hint: 'Choose another parent, or 0 for top level.',
    });
  }
  const seen = new Set<number>();
  for (let current = parent; current !== 0 && !seen.has(current); ) {
    seen.add(current);
    let term: Term;
    try {
      term = await client.get<Term>(`${kind.route}/${current}`, { _fields: 'id,name,parent' });
    } catch (err) {
      if (err instanceof WordPressError && err.status === 404 && current === parent) {
        throw new ToolError('parent_not_found', `Parent ${kind.noun} ${parent} does not exist.`, {
          hint: `List ${kind.plural} with ${kind.listTool}, or omit parent (0) for a top-level ${kind.noun}.`,
        });
      }
      throw err;
    }
    current = term.parent ?? 0;
    if (current === childId) {
      throw new ToolError(
        'parent_cycle',
        `${noun} ${parent} is a descendant of ${kind.noun} ${childId}; making it the parent would create a loop.`,
        { hint: 'Choose a parent outside this subtree, or 0 for top level.' },
      );
    }
  }
}

/**
 * Refuses a slug another term of the taxonomy has. On create, wp_insert_term() would silently
 * make it unique (`latest-2`, wp_unique_term_slug()); the collection's `slug` filter applies
 * sanitize_title() as WordPress does to the slug it stores.
 */
export async function checkSlugFree(
  client: WordPressClient,
  kind: TermKind,
  slug: string,
  excludeId?: number,
): Promise<void> {
  const found = await client.get<Term[]>(kind.route, { slug, _fields: 'id,name', hide_empty: false });
  const other = found.find((term) => term.id !== excludeId);
  if (other) {
    throw new ToolError(
      'term_exists',
      `The ${kind.noun} "${decodeEntities(other.name)}" (id ${other.id}) already has the slug "${slug}".`,
      { hint: `Choose another slug, or use id ${other.id}.`, details: { existing_id: other.id } },
    );
  }
}
