import { z } from 'zod';
import { decodeEntities, type WordPressClient } from '../../client/index.js';
import { defineTool } from '../define-tool.js';
import { cleanupOutput } from '../output-schemas.js';
import { parentId, taxonomySlug, wpIds } from '../schema.js';
import { type DoneState, taxonomyRef } from '../undo-data.js';
import { setParents } from './parent-writes.js';
import { ToolError } from '../tool-error.js';
import { idRanges } from '../answers/bulk.js';
import { resolveTaxonomy } from './taxonomies.js';
import { notHierarchical } from './term-checks.js';
import { type TermKind, termNotFound } from './terms.js';

type Term = { id: number; name: string; parent: number };
type Params = { taxonomy: string; term_ids: number[]; parent: number };

interface Plan {
  kind: TermKind;
  terms: Term[];
  parent?: Term;
}

/**
 * Reads the terms and the new parent and refuses a loop: the parent itself, or a descendant of
 * one of the terms (its ancestors include a term moved). WordPress would not refuse it:
 * wp_check_term_hierarchy_for_loops() silently makes such a parent 0.
 */
async function plan(client: WordPressClient, params: Params): Promise<Plan> {
  const kind = await resolveTaxonomy(client, params.taxonomy);
  if (!kind.hierarchical) throw notHierarchical(kind);
  const ids = [...new Set(params.term_ids)];
  const wanted = params.parent ? [...ids, params.parent] : ids;
  const found = await client.all<Term>(kind.route, { include: wanted, _fields: 'id,name,parent', hide_empty: false, per_page: 100 });
  const byId = new Map(found.map((t) => [t.id, { ...t, name: decodeEntities(t.name) }]));
  const missing = wanted.filter((id) => !byId.has(id));
  if (missing.length) throw termNotFound(kind, missing);
  const moving = new Set(ids);
  for (let id = params.parent, seen = new Set<number>(); id !== 0 && !seen.has(id); ) {
    seen.add(id);
    if (moving.has(id)) {
      const what = id === params.parent ? `${kind.noun} ${id} cannot be its own parent` : `${params.parent} is under ${kind.noun} ${id}`;
      throw new ToolError('parent_cycle', `${what}: moving it under ${params.parent} would make a loop. Nothing was changed.`, {
        hint: `Leave ${id} out of term_ids, or choose a parent outside its subtree (0 = top level).`,
        details: { term_id: id },
      });
    }
    const next: Term = byId.get(id) ?? (await client.get<Term>(`${kind.route}/${id}`, { _fields: 'id,name,parent' }));
    id = next.parent ?? 0;
  }
  return { kind, terms: ids.map((id) => byId.get(id) as Term), parent: params.parent ? byId.get(params.parent) : undefined };
}

/** The plan the journal's scope read, reused by the same call's execute (as prune-terms does). */
const scoped = new WeakMap<object, Plan>();

const where = (p: Plan) => (p.parent ? `under "${p.parent.name}" (id ${p.parent.id})` : 'to the top level');
const names = (terms: Term[]) =>
  terms.slice(0, 10).map((t) => `"${t.name}"`).join(', ') + (terms.length > 10 ? ` and ${terms.length - 10} more` : '');

export const setTermsParent = defineTool({
  name: 'set-terms-parent',
  toolkit: 'taxonomy',
  description: 'Move terms under one parent (0 = top level); refuses loops.',
  schema: () => z.strictObject({ taxonomy: taxonomySlug(), term_ids: wpIds().max(500), parent: parentId().describe('0 = top level') }),
  outputSchema: cleanupOutput,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  undo: {
    // The plan read here is the one the execute moves from (each term only while its parent is still this).
    scope: async ({ client }, params) => {
      const p = await plan(client, params);
      scoped.set(params, p);
      return { taxonomy: taxonomyRef(p.kind), terms: params.term_ids };
    },
    done: (result: { journal?: DoneState }) => result.journal,
    summary: (params, result: { moved?: number[] }) =>
      `moved ${result.moved?.length ?? 0} ${params.taxonomy} term(s) under ${params.parent}`,
  },
  review: async ({ client }, params) => {
    const p = await plan(client, params);
    return { approval: 'required', summary: `move the ${p.kind.plural} ${names(p.terms)} ${where(p)}` };
  },
  answer: ({ journal: _journal, ...answer }: { journal?: DoneState; taxonomy: string }) => answer,
  async execute({ client }, params) {
    const p = scoped.get(params) ?? (await plan(client, params));
    scoped.delete(params);
    const todo = p.terms.filter((t) => t.parent !== params.parent);
    const { moved, skipped, failed, unknown, maybe } = await setParents(client, p.kind, todo, params.parent);
    if (!moved.length && todo.length && unknown.length && !failed.length)
      throw new ToolError('outcome_unknown', `Whether the ${p.kind.plural} were moved is unknown: the answer was lost and they were not moved yet when read back (ids ${idRanges(unknown)}).`, {
        hint: 'List the terms (list-terms) in a minute; undo-change puts back whatever was moved.',
      });
    if (failed.length && !moved.length)
      throw new ToolError(failed[0]!.code, `No ${p.kind.noun} was moved: ${failed[0]!.message}`, { details: { failed } });
    return {
      taxonomy: p.kind.taxonomy,
      parent: params.parent,
      moved,
      unchanged: idRanges(p.terms.filter((t) => t.parent === params.parent).map((t) => t.id)),
      ...(skipped.length ? { skipped } : {}),
      ...(failed.length ? { failed } : {}),
      ...(unknown.length ? { unknown: { ids: idRanges(unknown), reason: 'the answer was lost and they were not moved yet when read back: WordPress may still move them' } } : {}),
      // Moves whose answer was lost, as made; terms changed since the plan, as left (the journal's
      // read after holds the other writer's move, not ours).
      journal: { terms: { ...maybe, ...Object.fromEntries(skipped.map((k) => [String(k.id), { parent: todo.find((t) => t.id === k.id)?.parent ?? 0 }])) } },
    };
  },
});
