import { decodeEntities, mapLimit, type WordPressClient } from '../../client/index.js';
import { hasCompanion } from '../companion.js';
import { ToolError } from '../tool-error.js';
import { taxonomyPostTypes } from './post-types.js';
import type { TermKind } from './terms.js';

/**
 * Without the companion plugin's read route, posts REST cannot show: those of a post type the
 * taxonomy is on but with show_in_rest false (issue #34: a merge deleting its sources left them
 * with no term). Custom statuses are not among them: post-types.ts asks for every status the
 * collection takes. How many: WordPress's own `count` of a term is its published posts of every
 * type the taxonomy is on (_update_post_term_count()); what it counts beyond the published posts
 * REST shows is held out of sight. Drafts of those types it does not count, so any hidden type
 * refuses, naming the count when there is one.
 * https://developer.wordpress.org/reference/functions/_update_post_term_count/
 */
export interface HiddenHolders {
  /** The post types REST does not show. */
  types: string[];
  terms: Array<{ id: number; name: string; hidden: number; counted: number; visible: number }>;
}

/** undefined when REST shows every post that can hold the terms (or the plugin shows them all). */
export async function hiddenHolders(
  client: WordPressClient,
  kind: TermKind,
  termIds: readonly number[],
): Promise<HiddenHolders | undefined> {
  if (await hasCompanion(client, 'post-terms/read')) return undefined;
  const { routes, hidden } = await taxonomyPostTypes(client, kind.taxonomy);
  if (!hidden.length) return undefined;
  const terms = await client.all<{ id: number; name: string; count: number }>(kind.route, {
    include: [...termIds],
    _fields: 'id,name,count',
    hide_empty: false,
    per_page: 100,
  });
  const counted = await mapLimit(terms, client.concurrency, async (term) => {
    const shown = await Promise.all(
      routes.map((route) =>
        client.count(route.route, {
          [kind.postsParam]: term.id,
          // As WordPress counts: attachments by their own `inherit` status, others when published.
          status: route.type === 'attachment' ? 'inherit' : 'publish',
        }),
      ),
    );
    const visible = shown.reduce((a, b) => a + b, 0);
    const count = Number(term.count ?? 0);
    return { id: term.id, name: decodeEntities(term.name), hidden: Math.max(0, count - visible), counted: count, visible };
  });
  return { types: hidden, terms: counted };
}

/** The refusal, by name: which terms, how many objects, of which types, and the way out. */
export function hiddenHoldersError(kind: TermKind, found: HiddenHolders, what: string, alternative: string): ToolError {
  const types = found.types.join(', ');
  const total = found.terms.reduce((n, t) => n + t.hidden, 0);
  const each = found.terms
    .filter((t) => t.hidden)
    .map((t) => `${kind.noun} ${t.id} '${t.name}' (WordPress counts ${t.counted} published, REST shows ${t.visible})`)
    .join(', ');
  const names = found.terms.map((t) => `${t.id} '${t.name}'`).join(', ');
  const message = total
    ? `${total} object(s) this account cannot see through REST hold ${each}: posts of type ${types}, which WordPress does not show in REST.`
    : `Posts of type ${types}, which WordPress does not show in REST, can hold ${kind.noun} ${names}; this account cannot see them (WordPress's count shows no published one, and it does not count drafts).`;
  return new ToolError('objects_not_visible', `Cannot ${what}: ${message} They would lose it. Nothing was changed.`, {
    hint: `Install the companion plugin (it sees every post type and status): \`cms-admin plugin install --wp-content <dir>\` or the zip from \`cms-admin plugin zip\`; or ${alternative}.`,
    details: { post_types: found.types, objects_not_visible: total },
  });
}
