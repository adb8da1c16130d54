import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { mergeOutput } from '../output-schemas.js';
import { failuresByReason, noneDone } from '../answers/bulk.js';
import { taxonomySlug, wpId, wpIds } from '../schema.js';
import { applyMerge, describePlan, type MergeReport, planMerge } from './merge.js';
import { withPostTermsLock } from './post-lock.js';
import { reviewMerge } from './reviews.js';
import { resolveTaxonomy } from './taxonomies.js';
import type { TermKind } from './terms.js';
import { termMergeUndo } from './undo-terms.js';

/**
 * The merge tool, written once: merge-terms for any taxonomy (`taxonomy`), merge-categories
 * with it fixed. Every post of every type and status in a source gets the target and loses
 * the sources; children move under the target; sources are deleted only when nothing is left.
 */
export function termMergeTool(spec: { name: string; description: string; kind?: TermKind; noun: string }) {
  const shape = () => ({
    ...(spec.kind ? {} : { taxonomy: taxonomySlug() }),
    source_ids: wpIds(),
    target_id: wpId(),
    delete_sources: z.boolean().optional().describe('If every post moved'),
  });
  const kindOf = (client: Parameters<typeof resolveTaxonomy>[0], params: { taxonomy?: string }) =>
    spec.kind ?? resolveTaxonomy(client, params.taxonomy as string);
  type Params = { taxonomy?: string; source_ids: number[]; target_id: number; delete_sources?: boolean };
  const plan = async (client: Parameters<typeof resolveTaxonomy>[0], p: Params) =>
    planMerge(client, await kindOf(client, p), p.source_ids, p.target_id, p.delete_sources ?? false);
  return defineTool({
    name: spec.name,
    toolkit: 'taxonomy',
    description: spec.description,
    schema: () => z
      .strictObject(shape())
      .refine((p) => new Set(p.source_ids).size === p.source_ids.length, {
        path: ['source_ids'],
        message: 'contains duplicates',
      })
      .refine((p) => !p.source_ids.includes(p.target_id), {
        path: ['source_ids'],
        message: 'must not contain target_id',
      }),
    // Destructive even without delete_sources: posts lose the sources (the change journal, when
    // on, records which post had which, so it can be undone: src/undo/).
    outputSchema: mergeOutput,
    annotations: { readOnly: false, destructive: true, idempotent: true },
    undo: termMergeUndo(async (client, params) => kindOf(client, params)),
    review: async ({ client }, params) => reviewMerge(client, await kindOf(client, params as Params), params as Params),
    // Thousands of posts: failed posts by reason, id ranges (the audit log keeps every post).
    answer: (result: MergeReport | ReturnType<typeof describePlan>) => {
      if (!('posts_failed' in result)) return result;
      // Each post's change is for the journal (undo-terms.ts), not the answer.
      const { post_changes: _journalled, ...answer } = result;
      const { failures, more } = failuresByReason(answer.posts_failed);
      return { ...answer, posts_failed: failures, ...(more ? { posts_failed_reasons_not_listed: more } : {}) };
    },
    // The plan, read from the site: which posts would move, which children, which sources go.
    preview: async ({ client }, params) => describePlan(await plan(client, params as Params)),
    execute: ({ client }, params) =>
      withPostTermsLock(client, async () => {
        const report = await applyMerge(client, await plan(client, params as Params));
        if (report.posts_failed.length && !report.posts_moved)
          throw noneDone(report.posts_failed, movedChildren(report));
        return report;
      }),
  });
}

/** Children re-parented before every post failed (their write runs beside the posts'): said, not hidden. */
function movedChildren(report: MergeReport) {
  const ids = report.children_reparented;
  if (!ids.length) return undefined;
  return {
    said: `no post was changed, but child term(s) ${ids.join(', ')} had been moved out of the sources to the target ${report.target_id}`,
    details: { children_reparented: ids },
  };
}
