import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { cleanupOutput } from '../output-schemas.js';
import { parentId, taxonomySlug, text, wpIds } from '../schema.js';
import { type DoneState, taxonomyRef } from '../undo-data.js';
import { idRanges } from '../answers/bulk.js';
import { ToolError } from '../tool-error.js';
import { holders, NAMED, namedTerms, type PrunePlan, type PruneParams, planPrune } from './prune.js';
import { applyPrune } from './prune-apply.js';

/**
 * The plan the journal's scope read, reused by the execute of the same call (the same params
 * object: run-tool.ts), so what is deleted is what was journalled; taken once, then gone.
 */
const scoped = new WeakMap<object, PrunePlan>();

export const pruneTerms = defineTool({
  name: 'prune-terms',
  toolkit: 'taxonomy',
  description: 'Delete terms used by at most max_posts posts of any status or type; never the default category.',
  schema: () => z.strictObject({
    taxonomy: taxonomySlug(),
    max_posts: parentId().optional().describe('Default 0'),
    search: text().optional(),
    older_than: text(40).optional().describe('ISO date: kept if used since'),
    exclude_ids: wpIds().optional().describe('Never pruned'),
    include_parents: z.boolean().optional().describe('Also parents'),
  }),
  outputSchema: cleanupOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: {
    async scope({ client }, params) {
      const plan = await planPrune(client, params as PruneParams);
      scoped.set(params, plan);
      const ids = plan.terms.map((t) => t.id);
      const children = [...plan.children.values()].flat();
      return { taxonomy: taxonomyRef(plan.kind), terms: [...ids, ...children], posts: holders(plan), postTerms: ids };
    },
    // What each object answered (#59): a post given a pruned term meanwhile kept it, so is not in it.
    done: (result: { journal?: DoneState }) => result.journal,
    summary: (params, result: { deleted?: number }) => `pruned ${result.deleted ?? 0} ${params.taxonomy} term(s)`,
  },
  review: async ({ client }, params) => {
    const plan = await planPrune(client, params as PruneParams);
    if (!plan.terms.length) return { approval: 'none', summary: `no ${plan.kind.plural} to prune` };
    const used = plan.maxObjects ? `used by at most ${plan.maxObjects} post(s) of any status` : 'used by no post of any status';
    return {
      approval: 'required',
      summary: `delete ${plan.terms.length} ${plan.kind.plural} ${used}: ${namedTerms(plan.terms)}`,
    };
  },
  preview: async ({ client }, params) => {
    const plan = await planPrune(client, params as PruneParams);
    return {
      dry_run: true,
      taxonomy: plan.kind.taxonomy,
      would_delete: plan.terms.length,
      terms: plan.terms.slice(0, NAMED).map((t) => ({ id: t.id, name: t.name, posts: t.objects })),
      ...(plan.terms.length > NAMED ? { more: plan.terms.length - NAMED } : {}),
    };
  },
  // The journal's record stays out of the answer.
  answer: ({ journal: _journal, ...answer }: { journal?: DoneState; taxonomy: string }) => answer,
  async execute({ client }, params) {
    const plan = scoped.get(params) ?? (await planPrune(client, params as PruneParams));
    scoped.delete(params);
    const ids = plan.terms.map((t) => t.id);
    const { deleted, kept, unknown, journal } = await applyPrune(client, plan);
    if (ids.length && !deleted.length && unknown.length)
      throw new ToolError('outcome_unknown', `No ${plan.kind.noun} was seen deleted, but the answer about ${unknown.length} was lost: WordPress may still be deleting them (ids ${idRanges(unknown)}).`, {
        hint: 'List the terms (list-terms) in a minute; undo-change puts back whatever was deleted.',
      });
    if (ids.length && !deleted.length)
      throw new ToolError('nothing_pruned', `No ${plan.kind.noun} was deleted: ${kept[0]?.reason ?? 'none left to prune'}.`, {
        hint: 'List the terms again (list-terms); they may be in use now.',
        details: { kept: kept.slice(0, NAMED) },
      });
    return {
      taxonomy: plan.kind.taxonomy,
      deleted: deleted.length,
      deleted_ids: idRanges(deleted),
      ...(kept.length ? { kept: kept.slice(0, NAMED), ...(kept.length > NAMED ? { kept_more: kept.length - NAMED } : {}) } : {}),
      ...(unknown.length ? { unknown: { ids: idRanges(unknown), reason: 'the answer was lost and they were still there when looked up: WordPress may still be deleting them' } } : {}),
      ...(journal ? { journal } : {}),
    };
  },
});
