import { type WordPressClient, WordPressError } from '../client/index.js';
import { countPostsUsing } from '../tools/taxonomy/post-terms.js';
import { sameTerm, TERM_STATE_FIELDS, type TaxonomyRef, type TermState, toTermState, type UndoState } from './state.js';
import { message, type RestoreOptions, type RestoreOutcome, put, writeFailed } from './types.js';

function termItem(taxonomy: TaxonomyRef, id: number, state?: TermState | null): string {
  return `${taxonomy.noun} ${id}${state ? ` '${state.name}'` : ''}`;
}

/** Terms back as they were: recreated (parents first), changed back; deletions are left to the caller (after the posts). */
export async function restoreTerms(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  expected: UndoState,
  target: UndoState,
  options: RestoreOptions,
  out: RestoreOutcome,
  toDelete: number[],
): Promise<void> {
  const toCreate: number[] = [];
  const toUpdate: number[] = [];
  for (const [key, want] of Object.entries(target.terms ?? {})) {
    const id = Number(key);
    const now = out.current.terms?.[key] ?? null;
    const then = expected.terms?.[key];
    const item = termItem(taxonomy, id, want ?? now);
    // Changed, not created or deleted: only the fields the change changed (below).
    if (want && then) toUpdate.push(id);
    else if (sameTerm(now, want)) out.skipped.push(item);
    else if (!options.force && !sameTerm(now, then)) out.conflicts.push({ item, reason: termChange(now) });
    else if (!want) toDelete.push(id);
    else if (!now) toCreate.push(id);
    else toUpdate.push(id);
  }
  // Parents first: a recreated child's parent may be recreated in the same undo.
  const pending = new Set(toCreate);
  while (pending.size) {
    const ready = [...pending].filter((id) => !pending.has(target.terms?.[id]?.parent ?? 0));
    const batch = ready.length ? ready : [...pending];
    for (const id of batch) {
      pending.delete(id);
      await recreateTerm(client, taxonomy, id, target.terms?.[id] as TermState, options, out);
    }
  }
  for (const id of toUpdate)
    await updateTerm(client, taxonomy, id, expected.terms?.[id], target.terms?.[id] as TermState, options, out);
}

function termChange(now: TermState | null): string {
  return now ? `changed since (now '${now.name}', slug ${now.slug}, parent ${now.parent})` : 'deleted since';
}

/** A term's parent in today's ids (its parent may have been recreated with a new id). */
function mapped(out: RestoreOutcome, id: number): number {
  return out.idMap[id] ?? id;
}

async function recreateTerm(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  id: number,
  want: TermState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const item = termItem(taxonomy, id, want);
  // Its registered meta too (#34.3): a recreated term without it lost e.g. its `color`.
  const body = {
    name: want.name,
    slug: want.slug,
    description: want.description,
    ...parentField(taxonomy, out, want),
    ...(want.meta ? { meta: want.meta } : {}),
  };
  if (options.dryRun) {
    // The plan the undo's question is built from (tools/changes/undo-review.ts), under the old id.
    put(out.result, 'terms', id, { ...want, parent: body.parent ?? 0 });
    out.restored.push(`${item} (recreated with a new id)`);
    return;
  }
  try {
    // A run cut short may have recreated it already: slugs are unique in a taxonomy.
    const [found] = await client.get<Array<Record<string, unknown>>>(taxonomy.route, {
      slug: want.slug,
      hide_empty: false,
      context: 'edit',
      _fields: TERM_STATE_FIELDS,
    });
    let newId: number;
    let verb = 'recreated';
    if (found && toTermState(found).name === want.name) {
      newId = Number(found.id);
      verb = 'already recreated';
      if (!sameTerm(toTermState(found), { ...want, parent: body.parent ?? 0 })) {
        await client.post(`${taxonomy.route}/${newId}`, body, { _fields: 'id' });
        verb = 'recreated';
      }
    } else if (found) {
      out.conflicts.push({
        item,
        reason: `its slug ${want.slug} is taken by ${taxonomy.noun} ${String(found.id)} '${String(found.name)}'`,
      });
      return;
    } else {
      newId = Number((await client.post<{ id: number }>(taxonomy.route, body, { _fields: 'id' })).id);
    }
    out.idMap[id] = newId;
    put(out.result, 'terms', newId, { ...want, parent: body.parent ?? 0 });
    if (out.result.terms) delete out.result.terms[String(id)];
    (verb === 'recreated' ? out.restored : out.skipped).push(`${item} (${verb} as ${newId})`);
  } catch (err) {
    writeFailed(out, item, `could not be recreated: ${message(err)}`);
  }
}

function parentField(taxonomy: TaxonomyRef, out: RestoreOutcome, want: TermState): { parent?: number } {
  return taxonomy.hierarchical ? { parent: want.parent ? mapped(out, want.parent) : 0 } : {};
}

const TERM_FIELDS = ['name', 'slug', 'description', 'parent'] as const;

/**
 * Puts back the fields the change changed (`then` → `want`), the parent in today's ids; a field
 * changed again since is a conflict, the term left as it is (unless force). Fields the change
 * did not touch stay as they are now.
 */
async function updateTerm(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  id: number,
  then: TermState | null | undefined,
  want: TermState,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const now = out.current.terms?.[String(id)] ?? null;
  const item = termItem(taxonomy, id, want);
  const value = (field: (typeof TERM_FIELDS)[number]) => (field === 'parent' ? mapped(out, want.parent) : want[field]);
  const fields = TERM_FIELDS.filter((field) => (then ? then[field] !== want[field] : true));
  const metaKeys = changedMeta(then, want);
  if (!fields.length && !metaKeys.length) return; // not changed by this change (a merge's target, a child left where it was)
  if (!now) return void out.conflicts.push({ item, reason: 'deleted since' });
  const body: Record<string, unknown> = Object.fromEntries(fields.filter((f) => now[f] !== value(f)).map((f) => [f, value(f)]));
  // Registered meta the change wrote (update-term's `meta`): the old value back, or the row gone.
  const metaBack = metaKeys.filter((k) => !sameValue(now.meta?.[k], want.meta?.[k]));
  if (metaBack.length) body.meta = Object.fromEntries(metaBack.map((k) => [k, want.meta?.[k] ?? null]));
  if (!Object.keys(body).length) return void out.skipped.push(item);
  const since = then ? fields.filter((f) => now[f] !== then[f]) : [];
  const metaSince = metaKeys.filter((k) => now.meta && !sameValue(now.meta[k], then?.meta?.[k]));
  if ((since.length || metaSince.length) && !options.force)
    return void out.conflicts.push({
      item,
      reason: `changed since (${[...since.map((f) => `${f} now '${now[f]}'`), ...metaSince.map((k) => `meta ${k} now ${JSON.stringify(now.meta?.[k] ?? null)}`)].join(', ')})`,
    });
  const { meta: _meta, ...plain } = body;
  const result = { ...now, ...plain, ...(body.meta ? { meta: { ...now.meta, ...(want.meta ?? {}) } } : {}) };
  if (options.dryRun) {
    put(out.result, 'terms', id, result); // the plan (see recreateTerm)
    return void out.restored.push(`${item} (${Object.keys(body).join(', ')})`);
  }
  try {
    await client.post(`${taxonomy.route}/${id}`, body, { _fields: 'id' });
    put(out.result, 'terms', id, result);
    out.restored.push(item);
  } catch (err) {
    writeFailed(out, item, `could not be changed back: ${message(err)}`);
  }
}

/** Meta keys whose value differs between the change's before and after (both read with meta). */
function changedMeta(then: TermState | null | undefined, want: TermState): string[] {
  if (!then?.meta || !want.meta) return [];
  const keys = new Set([...Object.keys(then.meta), ...Object.keys(want.meta)]);
  return [...keys].filter((k) => !sameValue(then.meta?.[k], want.meta?.[k]));
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A term the change created: deleted, unless posts use it now (then only with force). */
export async function deleteTerm(
  client: WordPressClient,
  taxonomy: TaxonomyRef,
  id: number,
  options: RestoreOptions,
  out: RestoreOutcome,
): Promise<void> {
  const item = termItem(taxonomy, id, out.current.terms?.[String(id)]);
  // A dry run has only planned taking the term off the posts this undo takes it off (they are
  // done before deletions when it runs): those do not keep it (#60.5: migrate-terms' undo said
  // its tag stays "used by 10 post(s)", then deleted it).
  const used = (await countPostsUsing(client, taxonomy, id)) - (options.dryRun ? plannedOff(out, id) : 0);
  if (used > 0 && !options.force)
    return void out.conflicts.push({ item, reason: `used by ${used} post(s) now; force deletes it anyway` });
  if (options.dryRun) {
    put(out.result, 'terms', id, null); // the plan (see recreateTerm)
    return void out.restored.push(`${item} (deleted)`);
  }
  try {
    await client.delete(`${taxonomy.route}/${id}`, { force: true });
  } catch (err) {
    if (!(err instanceof WordPressError && err.status === 404)) {
      writeFailed(out, item, `could not be deleted: ${message(err)}`);
      return;
    }
  }
  put(out.result, 'terms', id, null);
  out.restored.push(`${item} (deleted)`);
}

/** Posts a dry run's plan takes term `id` off (in `current`, not in `result`). */
function plannedOff(out: RestoreOutcome, id: number): number {
  return Object.entries(out.result.posts ?? {}).filter(([post, terms]) => out.current.posts?.[post]?.includes(id) && !terms.includes(id)).length;
}
