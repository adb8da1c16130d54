import type { WordPressClient } from '../../client/index.js';
import type { CallReview } from '../define-tool.js';
import { getTerm, type TermKind } from './terms.js';

/** What the approver of a deletion sees: the term's name and how many posts use it, from the site. */
export async function reviewDelete(client: WordPressClient, kind: TermKind, id: number, force = false): Promise<CallReview> {
  const term = (await getTerm(client, kind, id)) as { name: string; count?: number };
  const used = term.count ? `, used by ${term.count} post${term.count === 1 ? '' : 's'}` : '';
  return {
    approval: 'required',
    summary: `delete the ${kind.noun} "${term.name}" (id ${id}${used})${force ? ', even if posts use it' : ''}`,
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
  const summary = `merge the ${kind.plural} ${names} into "${target?.name}"${params.delete_sources ? ', then delete them' : ''}`;
  return params.dry_run ? { approval: 'none', summary: `plan (dry run): ${summary}` } : { approval: 'required', summary };
}
