import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { mergeOutput } from '../output-schemas.js';
import { withPostTermsLock } from './post-lock.js';
import { applyMerge, describePlan, type MergeReport, planMerge } from './merge.js';
import { failuresByReason, noneDone } from '../answers/bulk.js';
import { wpId, wpIds } from '../schema.js';
import { reviewMerge } from './reviews.js';

export const mergeCategories = defineTool({
  name: 'merge-categories',
  toolkit: 'taxonomy',
  description:
    "Move all posts of the sources to the target, removing the sources from them; sources' children move under the target.",
  schema: z
    .strictObject({
      source_ids: wpIds().describe('Category ids to merge'),
      target_id: wpId().describe('Target category id'),
      delete_sources: z.boolean().optional().describe('Delete sources if every post moved'),
    })
    .refine((p) => new Set(p.source_ids).size === p.source_ids.length, {
      path: ['source_ids'],
      message: 'contains duplicates',
    })
    .refine((p) => !p.source_ids.includes(p.target_id), {
      path: ['source_ids'],
      message: 'must not contain target_id',
    }),
  // Destructive even without delete_sources: posts lose the source categories, and which post
  // had which source is not recorded anywhere, so the change cannot be undone.
  outputSchema: mergeOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  review: ({ client }, params) => reviewMerge(client, params),
  // Thousands of posts: failed posts by reason, id ranges (the audit log keeps every post).
  answer: (result: MergeReport | ReturnType<typeof describePlan>) => {
    if (!('posts_failed' in result)) return result;
    const { failures, more } = failuresByReason(result.posts_failed);
    return { ...result, posts_failed: failures, ...(more ? { posts_failed_reasons_not_listed: more } : {}) };
  },
  // The plan, read from the site: which posts would move, which children, which sources go.
  preview: async ({ client }, params) =>
    describePlan(await planMerge(client, params.source_ids, params.target_id, params.delete_sources ?? false)),
  execute: ({ client }, params) =>
    withPostTermsLock(client, async () => {
      const plan = await planMerge(client, params.source_ids, params.target_id, params.delete_sources ?? false);
      const report = await applyMerge(client, plan);
      if (report.posts_failed.length && !report.posts_moved) throw noneDone(report.posts_failed);
      return report;
    }),
});
