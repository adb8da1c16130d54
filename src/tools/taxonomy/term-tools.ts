import type { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { deletedTermOutput, listOutput, termOutput } from '../output-schemas.js';
import { listPage } from '../answers/page.js';
import { previewCreateTerm, previewUpdateTerm } from './previews.js';
import { reviewDelete } from './reviews.js';
import { resolveTaxonomy } from './taxonomies.js';
import { notHierarchical } from './term-checks.js';
import { createTerm, deleteTerm, type TermInput, updateTerm } from './term-writes.js';
import { type TermFilters, type TermKind, termSource } from './terms.js';
import { termCreateUndo, termDeleteUndo, termUpdateUndo } from './undo-terms.js';

/**
 * The term tools, written once. Each is built either for any taxonomy (the `taxonomy` param:
 * list-terms, create-term …) or with the taxonomy fixed (get-cms-categories, create-tag …):
 * the category and tag tools differ only in name, description and schema.
 */
interface TermToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  schema: S | (() => S);
  /** A fixed kind (CATEGORY, TAG); without it the tool takes `taxonomy` and resolves it. */
  kind?: TermKind;
}

type Params = { taxonomy?: string } & Record<string, unknown>;

async function kindOf(client: WordPressClient, spec: TermToolSpec<z.ZodObject>, params: Params): Promise<TermKind> {
  return spec.kind ?? resolveTaxonomy(client, params.taxonomy as string);
}

export function termListTool<S extends z.ZodObject>(spec: TermToolSpec<S> & { narrowWith: string }) {
  return defineTool({
    ...spec,
    toolkit: 'taxonomy',
    outputSchema: listOutput,
    annotations: { readOnly: true, destructive: false, idempotent: true },
    async execute(context, params) {
      const { limit, cursor, full, ...filters } = params as Params & { limit?: number; cursor?: string; full?: boolean };
      const kind = await kindOf(context.client, spec, filters);
      const { taxonomy: _, ...termFilters } = filters;
      if (termFilters.parent !== undefined && !kind.hierarchical) throw notHierarchical(kind);
      return listPage(context, termSource(context.client, kind, termFilters as TermFilters, full ?? false), {
        tool: spec.name,
        filters,
        limit,
        cursor,
        defaultLimit: 100,
        narrowWith: spec.narrowWith,
      });
    },
  });
}

export function termCreateTool<S extends z.ZodObject>(spec: TermToolSpec<S>) {
  return defineTool({
    ...spec,
    toolkit: 'taxonomy',
    undo: termCreateUndo((client, params) => kindOf(client, spec, params)),
    outputSchema: termOutput,
    annotations: { readOnly: false, destructive: false, idempotent: false },
    async preview({ client }, params) {
      const { taxonomy: _, ...input } = params as Params;
      return previewCreateTerm(client, await kindOf(client, spec, params as Params), input as unknown as TermInput & { name: string });
    },
    async execute({ client }, params) {
      const { taxonomy: _, ...input } = params as Params;
      return createTerm(client, await kindOf(client, spec, params as Params), input as unknown as TermInput & { name: string });
    },
  });
}

export function termUpdateTool<S extends z.ZodObject>(spec: TermToolSpec<S>) {
  return defineTool({
    ...spec,
    toolkit: 'taxonomy',
    undo: termUpdateUndo((client, params) => kindOf(client, spec, params)),
    outputSchema: termOutput,
    annotations: { readOnly: false, destructive: false, idempotent: true },
    async preview({ client }, params) {
      const { taxonomy: _, id, ...changes } = params as Params & { id: number };
      return previewUpdateTerm(client, await kindOf(client, spec, params as Params), id, changes as TermInput);
    },
    async execute({ client }, params) {
      const { taxonomy: _, id, ...changes } = params as Params & { id: number };
      return updateTerm(client, await kindOf(client, spec, params as Params), id, changes as TermInput);
    },
  });
}

export function termDeleteTool<S extends z.ZodObject>(spec: TermToolSpec<S>) {
  return defineTool({
    ...spec,
    toolkit: 'taxonomy',
    undo: termDeleteUndo((client, params) => kindOf(client, spec, params)),
    outputSchema: deletedTermOutput,
    annotations: { readOnly: false, destructive: true, idempotent: true },
    async review({ client }, params) {
      const { id, force } = params as Params & { id: number; force?: boolean };
      return reviewDelete(client, await kindOf(client, spec, params as Params), id, force);
    },
    async execute({ client }, params) {
      const { id, force } = params as Params & { id: number; force?: boolean };
      return deleteTerm(client, await kindOf(client, spec, params as Params), id, force ?? false);
    },
  });
}
