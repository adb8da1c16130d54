import type { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { assignOutput } from '../output-schemas.js';
import { bulkAnswer } from '../answers/bulk.js';
import { assignTerms } from './assign.js';
import { withPostTermsLock } from './post-lock.js';
import { previewAddTerms, previewPostTerms } from './previews.js';
import { defaultNote, type RemoveReport, removeTerms, reviewRemove } from './remove.js';
import { resolveTaxonomy } from './taxonomies.js';
import type { TermKind } from './terms.js';
import { postTermsUndo } from './undo-terms.js';

/**
 * The post-term tools, written once: for any taxonomy (`taxonomy`, `term_ids`) or with the
 * taxonomy fixed (assign-categories-to-posts takes `category_ids`).
 */
interface PostTermToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  schema: S | (() => S);
  kind?: TermKind;
  /** The param holding the term ids: `category_ids`, `tag_ids`, `term_ids`. */
  termsParam: string;
}

type Params = { taxonomy?: string; post_ids: number[] } & Record<string, unknown>;

function read(client: WordPressClient, spec: PostTermToolSpec<z.ZodObject>, params: unknown) {
  const p = params as Params;
  const kind = spec.kind ? Promise.resolve(spec.kind) : resolveTaxonomy(client, p.taxonomy as string);
  return { kind, postIds: p.post_ids, termIds: p[spec.termsParam] as number[] };
}

export function termAssignTool<S extends z.ZodObject>(spec: PostTermToolSpec<S>) {
  return defineTool({
    ...spec,
    toolkit: 'taxonomy',
    outputSchema: assignOutput,
    annotations: { readOnly: false, destructive: false, idempotent: true },
    undo: postTermsUndo((client, params) => read(client, spec, params).kind, spec.termsParam, 'added'),
    answer: bulkAnswer,
    async preview({ client }, params) {
      const { kind, postIds, termIds } = read(client, spec, params);
      return previewAddTerms(client, await kind, postIds, termIds);
    },
    async execute({ client }, params) {
      const { kind, postIds, termIds } = read(client, spec, params);
      const resolved = await kind;
      return withPostTermsLock(client, () => assignTerms(client, resolved, postIds, termIds));
    },
  });
}

export function termRemoveTool<S extends z.ZodObject>(spec: PostTermToolSpec<S>) {
  return defineTool({
    ...spec,
    toolkit: 'taxonomy',
    outputSchema: assignOutput,
    // Destructive: which post had which term is lost; more than a few posts need approval.
    annotations: { readOnly: false, destructive: true, idempotent: true },
    undo: postTermsUndo((client, params) => read(client, spec, params).kind, spec.termsParam, 'removed'),
    answer: (report: RemoveReport) => ({ ...bulkAnswer(report), ...defaultNote(report) }),
    async review({ client }, params) {
      const { kind, postIds, termIds } = read(client, spec, params);
      return reviewRemove(client, await kind, postIds, termIds);
    },
    async preview({ client }, params) {
      const { kind, postIds, termIds } = read(client, spec, params);
      return previewPostTerms(client, await kind, postIds, { add: [], remove: termIds });
    },
    async execute({ client }, params) {
      const { kind, postIds, termIds } = read(client, spec, params);
      const resolved = await kind;
      return withPostTermsLock(client, () => removeTerms(client, resolved, postIds, termIds));
    },
  });
}
