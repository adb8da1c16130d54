import { type MetaPairs, pairsOf } from './term-meta.js';
import type { WordPressClient } from '../../client/index.js';
import type { ToolUndo } from '../define-tool.js';
import { type PostTermChange, taxonomyRef, type UndoState } from '../undo-data.js';
import { type PostFailure, postsWithAnyTerm } from './post-terms.js';
import { defaultCategoryId } from './term-writes.js';
import type { TermKind } from './terms.js';

/**
 * How the term tools' calls are journalled for undo (src/undo/), by kind: which terms and
 * posts each call touches. The engine reads them before and after the call and restores them.
 */
type KindOf = (client: WordPressClient, params: any) => Promise<TermKind>;
type P = Record<string, any>;

const noun = (before: UndoState) => before.taxonomy?.noun ?? 'term';
const plural = (before: UndoState, n: number) =>
  n === 1 ? noun(before) : (before.taxonomy?.plural ?? `${noun(before)}s`);
const quoted = (name: unknown) => `'${String(name)}'`;

/**
 * The terms a call changes on posts (the journal keeps each post's change in these only,
 * #34.4), with the default category where a call may empty a post's categories: WordPress,
 * or the tool, files such a post under it.
 */
async function postTermsOf(client: WordPressClient, kind: TermKind, ids: readonly number[], empties: boolean) {
  const fallback = empties && kind.taxonomy === 'category' ? await defaultCategoryId(client) : undefined;
  return [...new Set([...ids, ...(fallback === undefined ? [] : [fallback])])];
}

export function termCreateUndo(kindOf: KindOf): ToolUndo<P> {
  return {
    scope: async ({ client }, params) => ({ taxonomy: taxonomyRef(await kindOf(client, params)) }),
    created: (result: { id: number }) => ({ terms: [result.id] }),
    locate: (params) => ({ term: { name: params.name, ...(params.slug ? { slug: params.slug } : {}) } }),
    summary: (_params, result: { id: number; name: string }, before) =>
      `created ${noun(before)} ${result.id} ${quoted(result.name)}`,
  };
}

export function termUpdateUndo(kindOf: KindOf): ToolUndo<P> {
  return {
    scope: async ({ client }, params) => ({ taxonomy: taxonomyRef(await kindOf(client, params)), terms: [params.id] }),
    summary: (params, _result, before) => {
      const was = before.terms?.[params.id] as (Record<string, unknown> & { meta?: Record<string, unknown> }) | null | undefined;
      const changes = ['name', 'slug', 'parent', 'description']
        .filter((field) => params[field] !== undefined && was?.[field] !== params[field])
        .map((field) => `${field} ${quoted(was?.[field] ?? '')} -> ${quoted(params[field])}`);
      for (const pair of pairsOf((params.meta ?? []) as MetaPairs))
        changes.push(`meta ${pair.key} ${quoted(String(was?.meta?.[pair.key] ?? ''))} -> ${quoted(pair.value)}`);
      return `changed ${noun(before)} ${params.id}: ${changes.join(', ') || 'nothing'}`;
    },
  };
}

export function termDeleteUndo(kindOf: KindOf): ToolUndo<P> {
  return {
    async scope({ client }, params) {
      const kind = await kindOf(client, params);
      const [posts, children, postTerms] = await Promise.all([
        postsWithAnyTerm(client, kind, [params.id]),
        kind.hierarchical ? childrenOf(client, kind, [params.id]) : [],
        postTermsOf(client, kind, [params.id], true),
      ]);
      return {
        taxonomy: taxonomyRef(kind),
        terms: [params.id, ...children],
        posts: posts.map((p) => p.id),
        postTerms,
      };
    },
    summary: (params, _result, before) => {
      const term = before.terms?.[params.id];
      const children = Object.keys(before.terms ?? {}).length - 1;
      const posts = Object.keys(before.posts ?? {}).length;
      return `deleted ${noun(before)} ${params.id} ${quoted(term?.name ?? '?')} (${posts} post(s)${children ? `, ${children} child term(s) moved up` : ''})`;
    },
  };
}

export function termMergeUndo(kindOf: KindOf): ToolUndo<P> {
  return {
    async scope({ client }, params) {
      const kind = await kindOf(client, params);
      const [posts, children, postTerms] = await Promise.all([
        postsWithAnyTerm(client, kind, params.source_ids),
        kind.hierarchical ? childrenOf(client, kind, params.source_ids) : [],
        postTermsOf(client, kind, [...params.source_ids, params.target_id], false),
      ]);
      return {
        taxonomy: taxonomyRef(kind),
        terms: [...params.source_ids, params.target_id, ...children],
        posts: posts.map((p) => p.id),
        postTerms,
      };
    },
    // The posts the merge itself moved, as it read them just before writing (merge.ts), not the
    // scope read earlier: a post given a source in between is moved, so it is journalled (#47.2).
    done: (result: { post_changes?: Record<string, PostTermChange>; posts_failed?: PostFailure[] }, params) =>
      result.post_changes
        ? {
            post_changes: result.post_changes,
            ...mayHaveLanded(result.posts_failed, { added: [params.target_id], removed: params.source_ids }),
          }
        : undefined,
    summary: (params, result: { sources_deleted?: number[]; posts_moved?: number }, before) =>
      `merged ${plural(before, params.source_ids.length)} ${params.source_ids.join(', ')} into ${params.target_id} (${result.posts_moved ?? Object.keys(before.posts ?? {}).length} post(s)${result.sources_deleted?.length ? `; deleted ${result.sources_deleted.join(', ')}` : ''})`,
  };
}

/** assign-*-to-posts and remove-terms-from-posts: every post's terms in the taxonomy. */
export function postTermsUndo(kindOf: KindOf, termsParam: string, verb: 'added' | 'removed'): ToolUndo<P> {
  return {
    async scope({ client }, params) {
      const kind = await kindOf(client, params);
      const terms: number[] = params[termsParam] ?? [];
      return {
        taxonomy: taxonomyRef(kind),
        posts: params.post_ids,
        postTerms: await postTermsOf(client, kind, terms, verb === 'removed'),
      };
    },
    // Posts whose request timed out and were not changed when read back: WordPress may still change them (#59.12).
    done: (result: { failed?: PostFailure[] }, params) => {
      const terms: number[] = params[termsParam] ?? [];
      return mayHaveLanded(result.failed, verb === 'added' ? { added: terms, removed: [] } : { added: [], removed: terms });
    },
    summary: (params, result: { updated?: number[] }, before) => {
      const terms: number[] = params[termsParam] ?? [];
      const where = verb === 'added' ? 'to' : 'from';
      return `${verb} ${plural(before, terms.length)} ${terms.join(', ')} ${where} ${result.updated?.length ?? 0} of ${params.post_ids.length} post(s)`;
    },
  };
}

/**
 * Posts whose answer was lost (`outcome_unknown`): journalled as changed (record.ts takes off what
 * each had already), so an undo gives back whatever WordPress applied after the answer (#59.12).
 */
function mayHaveLanded(failed: readonly PostFailure[] | undefined, change: PostTermChange) {
  const unknown = (failed ?? []).filter((f) => f.error.code === 'outcome_unknown').map((f) => f.post_id);
  return unknown.length ? { maybe_post_changes: Object.fromEntries(unknown.map((id) => [String(id), change])) } : undefined;
}

async function childrenOf(client: WordPressClient, kind: TermKind, parents: readonly number[]): Promise<number[]> {
  const lists = await Promise.all(
    parents.map((parent) =>
      client.all<{ id: number }>(kind.route, { parent, _fields: 'id', hide_empty: false, orderby: 'id' }),
    ),
  );
  return [...new Set(lists.flat().map((child) => child.id))];
}
