import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { migrateOutput } from '../output-schemas.js';
import { taxonomySlug, wpIds } from '../schema.js';
import { ToolError } from '../tool-error.js';
import { idRanges } from '../answers/bulk.js';
import { applyMigrate, type MigrateParams, type MigratePlan, type MigrateReport, migrateScope, planMigrate, toCreate } from './migrate.js';
import { withPostTermsLock } from './post-lock.js';

/** The plan the journal's scope read, reused by the same call's execute (as prune-terms does). */
const scoped = new WeakMap<object, MigratePlan>();

const listed = (plan: MigratePlan) =>
  plan.sources.slice(0, 20).map((t) => `"${t.name}"`).join(', ') + (plan.sources.length > 20 ? ` and ${plan.sources.length - 20} more` : '');

export const migrateTerms = defineTool({
  name: 'migrate-terms',
  toolkit: 'taxonomy',
  description: 'Move terms to another taxonomy (e.g. categories → tags): created or matched by slug, posts get them, sources deleted unless keep_source.',
  schema: () => z.strictObject({
    from_taxonomy: taxonomySlug().describe('e.g. category'),
    to_taxonomy: taxonomySlug().describe('e.g. post_tag'),
    term_ids: wpIds().max(500),
    keep_source: z.boolean().optional().describe('Keep the source terms'),
  }),
  outputSchema: migrateOutput,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  undo: {
    async scope({ client }, params) {
      const plan = await planMigrate(client, params as MigrateParams);
      scoped.set(params, plan);
      return migrateScope(plan);
    },
    created: (result: MigrateReport) => ({ terms: result.created_ids ?? [] }),
    // The targets it will create, by slug, in the intent (#59.4): an interrupted migration's undo finds them.
    locate: (params) => {
      const plan = scoped.get(params);
      return plan ? { termSlugs: toCreate(plan).map((t) => t.slug) } : {};
    },
    // What each object and source answered, never the plan (#59.1); what may have landed where an answer was lost (#59.12).
    done: (result: MigrateReport) => result.journal,
    summary: (params, result: MigrateReport) =>
      `migrated ${params.term_ids.length} term(s) from ${params.from_taxonomy} to ${params.to_taxonomy} (${result.posts_changed ?? 0} post(s))`,
  },
  review: async ({ client }, params) => {
    const plan = await planMigrate(client, params as MigrateParams);
    const stay = plan.holders.length - plan.movable.length;
    return {
      approval: 'required',
      summary: `turn the ${plan.from.plural} ${listed(plan)} into ${plan.to.plural} on ${plan.movable.length} post(s)${
        stay ? ` (${stay} object(s) of types ${plan.to.taxonomy} is not on keep the old ${plan.from.noun})` : ''
      }${params.keep_source ? '; the sources stay' : `; then the ${plan.from.plural} are deleted`}`,
    };
  },
  preview: async ({ client }, params) => {
    const plan = await planMigrate(client, params as MigrateParams);
    return {
      dry_run: true,
      from_taxonomy: plan.from.taxonomy,
      to_taxonomy: plan.to.taxonomy,
      terms: plan.sources.map((t) => ({ id: t.id, name: t.name, ...(plan.matched.has(t.id) ? { matches: plan.matched.get(t.id)?.id } : { creates: true }) })),
      posts_to_change: plan.movable.length,
      posts_not_moved: plan.holders.filter((h) => !plan.movable.includes(h)).slice(0, 50).map((h) => ({ id: h.id, type: h.type })),
    };
  },
  answer: (result: MigrateReport) => {
    const { journal: _journal, created_ids: _created, ...answer } = result;
    return {
      ...answer,
      posts_not_moved: answer.posts_not_moved.slice(0, 50),
      posts_failed: answer.posts_failed.slice(0, 50),
      ...(answer.posts_skipped ? { posts_skipped: answer.posts_skipped.slice(0, 50) } : {}),
      ...(answer.posts_unknown ? { posts_unknown: { ...answer.posts_unknown, post_ids: idRanges(answer.posts_unknown.post_ids) } } : {}),
    };
  },
  execute: ({ client }, params) =>
    withPostTermsLock(client, async () => {
      const plan = scoped.get(params) ?? (await planMigrate(client, params as MigrateParams));
      scoped.delete(params);
      const report = await applyMigrate(client, plan);
      const unknown = report.posts_unknown;
      if (plan.movable.length && !report.posts_changed && unknown && !report.posts_failed.length)
        throw new ToolError('outcome_unknown', `Whether the posts were given the new terms is unknown: ${unknown.reason}.`, {
          hint: 'Undo this change (undo-change) to put back whatever landed, or run migrate-terms again.',
          details: { terms: report.terms, post_ids: idRanges(unknown.post_ids) },
        });
      if (plan.movable.length && !report.posts_changed && report.posts_failed.length)
        throw new ToolError(report.posts_failed[0]!.code, `No post was given the new terms: ${report.posts_failed[0]!.message}`, {
          details: { terms: report.terms },
        });
      return report;
    }),
});
