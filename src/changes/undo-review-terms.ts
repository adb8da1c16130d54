import { decodeEntities, WordPressError } from '../client/index.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import { createCategory } from '../tools/taxonomy/create-category.js';
import { createTag } from '../tools/taxonomy/create-tag.js';
import { createTerm } from '../tools/taxonomy/create-term.js';
import { deleteCategory } from '../tools/taxonomy/delete-category.js';
import { deleteTag } from '../tools/taxonomy/delete-tag.js';
import { deleteTerm } from '../tools/taxonomy/delete-term.js';
import { updateCategory } from '../tools/taxonomy/update-category.js';
import { updateTag } from '../tools/taxonomy/update-tag.js';
import { updateTerm } from '../tools/taxonomy/update-term.js';
import type { TaxonomyRef, TermState, UndoState } from '../undo/types.js';
import { BULK, changed, forward, type Line, plural } from './undo-lines.js';

/**
 * Terms and posts' terms, in the term tools' words: one term as its forward call says it
 * (create-category / -tag / -term, update-*, delete-*), more than BULK of a kind in one line; posts
 * counted per term ("category 'News' back on 12 posts"). A change over two taxonomies
 * (migrate-terms: `also`, the source, restored first) is said for each, the source first (#60.5:
 * its undo's question never said the category comes back).
 */
export async function taxonomyLines(context: ToolContext, now: UndoState, after: UndoState): Promise<Line[]> {
  const also = after.also || now.also ? await taxonomyLines(context, now.also ?? {}, after.also ?? {}) : [];
  // In the engine's order (restore.ts): terms back, posts' terms, then the terms it deletes.
  const terms = await termLines(context, now, after);
  return [...also, ...terms.made, ...(await postLines(context, now, after)), ...terms.removed];
}

function termTools(taxonomy: TaxonomyRef) {
  if (taxonomy.taxonomy === 'category') return { create: createCategory, update: updateCategory, remove: deleteCategory, extra: {} };
  if (taxonomy.taxonomy === 'post_tag') return { create: createTag, update: updateTag, remove: deleteTag, extra: {} };
  return { create: createTerm, update: updateTerm, remove: deleteTerm, extra: { taxonomy: taxonomy.taxonomy } };
}

const pluralOf = (taxonomy: TaxonomyRef) => taxonomy.plural ?? `${taxonomy.noun}s`;

async function termLines(context: ToolContext, now: UndoState, after: UndoState): Promise<{ made: Line[]; removed: Line[] }> {
  const taxonomy = after.taxonomy ?? now.taxonomy;
  if (!taxonomy) return { made: [], removed: [] };
  const tools = termTools(taxonomy);
  const steps = Object.entries(after.terms ?? {})
    .map(([key, want]) => ({ id: Number(key), is: now.terms?.[key] ?? null, want }))
    .filter(({ is, want }) => changed(is, want));
  const kinds = {
    remove: steps.filter((s) => !s.want),
    create: steps.filter((s) => s.want && !s.is),
    update: steps.filter((s) => s.want && s.is),
  };
  const count = (n: number) => plural(n, taxonomy.noun, pluralOf(taxonomy));
  const named = (list: typeof steps) => list.map((s) => `'${(s.want ?? s.is)?.name}'`);
  const lines: Line[] = [];
  const removed: Line[] = [];
  // A term an undo deletes was made by the change; the posts it is taken off are counted before.
  if (kinds.remove.length > BULK) removed.push({ head: `delete ${count(kinds.remove.length)} the change created`, names: named(kinds.remove) });
  else
    for (const { id, is } of kinds.remove)
      removed.push(await termLine(context, tools.remove, { ...tools.extra, id }, `delete the ${taxonomy.noun} '${is?.name}' (id ${id})`));
  if (kinds.create.length > BULK) lines.push({ head: `create ${count(kinds.create.length)} again (new ids)`, names: named(kinds.create) });
  else
    for (const { want } of kinds.create)
      lines.push(await termLine(context, tools.create, { ...tools.extra, ...created(taxonomy, want as TermState) }, `create the ${taxonomy.noun} '${want?.name}' again (a new id)`));
  if (kinds.update.length > BULK) lines.push({ head: `change ${count(kinds.update.length)} back`, names: named(kinds.update) });
  else
    for (const { id, is, want } of kinds.update)
      lines.push(await termLine(context, tools.update, { ...tools.extra, id, ...fieldsOf(is as TermState, want as TermState) }, `change the ${taxonomy.noun} '${want?.name}' (id ${id}) back`));
  return { made: lines, removed };
}

function created(taxonomy: TaxonomyRef, want: TermState): Record<string, unknown> {
  return {
    name: want.name,
    slug: want.slug,
    ...(want.description ? { description: want.description } : {}),
    ...(taxonomy.hierarchical && want.parent ? { parent: want.parent } : {}),
  };
}

function fieldsOf(is: TermState, want: TermState): Record<string, unknown> {
  return Object.fromEntries(
    (['name', 'slug', 'description', 'parent'] as const).filter((f) => is[f] !== want[f]).map((f) => [f, want[f]]),
  );
}

/**
 * A term's forward words. Terms carry no account's power; a forward preview that refuses
 * because an earlier step of the same undo has not run yet (a parent recreated first, a name
 * freed by another change back, a term still on the posts this undo takes it off) gives way to
 * the plain line.
 */
async function termLine(context: ToolContext, tool: AnyToolDefinition, params: Record<string, unknown>, plain: string): Promise<string> {
  try {
    return await forward(context, tool, params);
  } catch (err) {
    if (err instanceof ToolError || (err instanceof WordPressError && (err.status ?? 500) < 500)) return plain;
    throw err;
  }
}

/** Posts' terms, counted per term: "category 'News' back on 12 posts", as the merge moved them. */
async function postLines(context: ToolContext, now: UndoState, after: UndoState): Promise<Line[]> {
  const taxonomy = after.taxonomy ?? now.taxonomy;
  if (!taxonomy || !after.posts) return [];
  const back = new Map<number, number>();
  const off = new Map<number, number>();
  const bump = (map: Map<number, number>, t: number) => map.set(t, (map.get(t) ?? 0) + 1);
  for (const [key, want] of Object.entries(after.posts)) {
    const is = now.posts?.[key] ?? [];
    for (const t of want) if (!is.includes(t)) bump(back, t);
    for (const t of is) if (!want.includes(t)) bump(off, t);
  }
  const names = await termNames(context, taxonomy, [...back.keys(), ...off.keys()], now, after);
  const posts = (n: number) => plural(n, 'post');
  const lines = (map: Map<number, number>, how: string): Line[] => {
    if (map.size <= BULK) return [...map].map(([t, n]) => `${taxonomy.noun} ${names.get(t) ?? t} ${how} ${posts(n)}`);
    const total = [...map.values()].reduce((a, b) => a + b, 0);
    return [{ head: `${plural(map.size, taxonomy.noun, pluralOf(taxonomy))} ${how} posts (${total} in all)`, names: [...map].map(([t, n]) => `${names.get(t) ?? t} ${n}`) }];
  };
  return [...lines(back, 'back on'), ...lines(off, 'taken off')];
}

async function termNames(context: ToolContext, taxonomy: TaxonomyRef, ids: number[], now: UndoState, after: UndoState): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const id of ids) {
    const known = after.terms?.[id] ?? now.terms?.[id];
    if (known) names.set(id, `'${known.name}'`);
  }
  const unknown = [...new Set(ids.filter((id) => !names.has(id)))];
  if (unknown.length) {
    const found = await context.client.all<{ id: number; name: string }>(taxonomy.route, {
      include: unknown,
      _fields: 'id,name',
      hide_empty: false,
      per_page: 100,
    });
    for (const term of found) names.set(term.id, `'${decodeEntities(term.name)}'`);
  }
  return names;
}
