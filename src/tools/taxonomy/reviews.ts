import type { WordPressClient } from '../../client/index.js';
import type { CallReview } from '../define-tool.js';
import { hiddenHolders } from './hidden-holders.js';
import { defaultCategoryId, refuseDelete } from './term-writes.js';
import { countPostsUsing } from './post-terms.js';
import { getTerm, type TermKind } from './terms.js';

/**
 * What the approver of a deletion sees: the term's name and how many posts use it, from the
 * site — every type and status (the term's own `count` is published posts only), and posts REST
 * cannot show (without the plugin), refused here already unless forced.
 */
export async function reviewDelete(client: WordPressClient, kind: TermKind, id: number, force = false): Promise<CallReview> {
  const [term, count, hidden, children, defaultId] = await Promise.all([
    getTerm(client, kind, id) as Promise<{ name: string; parent?: number }>,
    countPostsUsing(client, kind, id),
    hiddenHolders(client, kind, [id]),
    // WordPress moves a deleted term's children to its parent: the person approves that too.
    kind.hierarchical ? client.count(kind.route, { parent: id, hide_empty: false }) : Promise.resolve(0),
    kind.taxonomy === 'category' ? defaultCategoryId(client) : undefined,
  ]);
  // What the delete would refuse, refused now (a dry run, before anyone is asked).
  refuseDelete(kind, term, id, { defaultId, postsAffected: count, hidden, force });
  const unseen = hidden?.terms.reduce((n, t) => n + t.hidden, 0) ?? 0;
  const used = count + unseen ? `, used by ${count + unseen} post${count + unseen === 1 ? '' : 's'} of any status` : '';
  const beyond = hidden ? `; posts of type ${hidden.types.join(', ')}, which this account cannot see, may hold it too` : '';
  const up = term.parent ? `its parent (id ${term.parent})` : 'the top level';
  const moved = children ? `; its ${children} child ${children === 1 ? kind.noun : kind.plural} move${children === 1 ? 's' : ''} to ${up}` : '';
  return {
    approval: 'required',
    summary: `delete the ${kind.noun} "${term.name}" (id ${id}${used})${force ? ', even if posts use it' : ''}${moved}${beyond}`,
  };
}

/** Merge in plain words; a dry run changes nothing and needs no approval. */
export async function reviewMerge(
  client: WordPressClient,
  kind: TermKind,
  params: { source_ids: number[]; target_id: number; delete_sources?: boolean; dry_run?: boolean },
): Promise<CallReview> {
  const [target, ...sources] = await Promise.all(
    [params.target_id, ...params.source_ids].map((id) => getTerm(client, kind, id)),
  );
  const names = sources.map((s) => `"${s.name}"`).join(', ');
  // Whether the sources stay is half of what a person decides (#36): said either way.
  const fate = params.delete_sources
    ? `; then ${names} ${sources.length > 1 ? 'are' : 'is'} deleted (only if no post is left in ${sources.length > 1 ? 'them' : 'it'})`
    : `; ${names} ${sources.length > 1 ? 'are' : 'is'} kept, without the posts that move`;
  const summary = `merge the ${kind.plural} ${names} into "${target?.name}"${fate}`;
  return params.dry_run ? { approval: 'none', summary: `plan (dry run): ${summary}` } : { approval: 'required', summary };
}
