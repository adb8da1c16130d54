import type { WordPressClient } from '../../client/index.js';
import type { DoneState } from '../undo-data.js';
import type { MigratePlan } from './migrate-plan.js';
import { moveObjects } from './migrate-objects.js';
import { deleteSources } from './migrate-sources.js';
import { makeTargets } from './migrate-targets.js';

export { type MigrateParams, type MigratePlan, migrateScope, planMigrate, toCreate } from './migrate-plan.js';

export interface MigrateTerm {
  from_id: number;
  name: string;
  to_id: number;
  created: boolean;
  posts: number;
  /** 'unknown': its deletion's answer was lost and it was still there when looked up; it may still go. */
  source_deleted: boolean | 'unknown';
  kept_reason?: string;
  meta_dropped?: string[];
}

export interface MigrateReport {
  from_taxonomy: string;
  to_taxonomy: string;
  terms: MigrateTerm[];
  posts_changed: number;
  /** Objects of types the target taxonomy is not on: they keep the source term. */
  posts_not_moved: Array<{ id: number; type: string | null }>;
  posts_failed: Array<{ post_id: number; code: string; message: string }>;
  /** Objects that had changed since the plan (a source taken off them meanwhile): left as they are, named. */
  posts_skipped?: Array<{ post_id: number; term_id: number; reason: string }>;
  /** Objects whose answer was lost and that were not moved when read back: WordPress may still move them (#59.12). */
  posts_unknown?: { post_ids: number[]; reason: string };
  /** For the journal (undo-terms: `done`); not in the answer. */
  journal?: DoneState;
  created_ids?: number[];
}

/**
 * Target terms made or matched (migrate-targets.ts), every movable object moved — each as it is
 * when reached (migrate-objects.ts) — then the sources nothing holds deleted, each checked just
 * before (migrate-sources.ts). The journal gets what was done, item by item, and what may have
 * been done where an answer was lost (#59).
 */
export async function applyMigrate(client: WordPressClient, plan: MigratePlan): Promise<MigrateReport> {
  const targets = await makeTargets(client, plan);
  const moved = await moveObjects(client, plan, targets.toId);
  const sources = await deleteSources(client, plan, moved);
  const journal: DoneState = {
    post_changes: moved.targetChanges,
    ...(moved.maybe ? { maybe_post_changes: moved.maybe.target } : {}),
    also: {
      ...(moved.sourceChanges ? { post_changes: moved.sourceChanges } : {}),
      ...(moved.maybe ? { maybe_post_changes: moved.maybe.source } : {}),
      ...(Object.keys(sources.maybe).length ? { terms: sources.maybe } : {}),
    },
  };
  const report: MigrateReport = {
    from_taxonomy: plan.from.taxonomy,
    to_taxonomy: plan.to.taxonomy,
    terms: [],
    posts_changed: moved.changed.length,
    posts_not_moved: plan.holders.filter((h) => !plan.movable.includes(h)).map((h) => ({ id: h.id, type: h.type })),
    posts_failed: moved.failed,
    ...(moved.skipped.length ? { posts_skipped: moved.skipped } : {}),
    ...(moved.unknown.length
      ? { posts_unknown: { post_ids: moved.unknown, reason: `${moved.unknownWhy}: not moved when read back, but WordPress may still be moving them; check them, then run migrate-terms again` } }
      : {}),
    journal,
    created_ids: targets.created,
  };
  for (const source of plan.sources) {
    const to = targets.toId.get(source.id) as number;
    const unknown = sources.unknown.has(source.id);
    report.terms.push({
      from_id: source.id,
      name: source.name,
      to_id: to,
      created: targets.created.includes(to),
      posts: plan.holders.filter((h) => h.terms.includes(source.id)).length,
      source_deleted: unknown ? 'unknown' : sources.deleted.has(source.id),
      ...(sources.kept.has(source.id) ? { kept_reason: sources.kept.get(source.id) } : {}),
      ...(unknown ? { kept_reason: 'its deletion got no answer and it was still there when looked up: WordPress may still be deleting it' } : {}),
      ...(targets.dropped.has(source.id) ? { meta_dropped: targets.dropped.get(source.id) } : {}),
    });
  }
  return report;
}
