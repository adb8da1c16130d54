import { decodeEntities } from '../client/index.js';
import type { UndoPlan } from '../undo/undo.js';
import type { TaxonomyRef, TermState, UndoState, UserState } from '../undo/types.js';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { parseParams } from '../tools/params.js';
import { ToolError } from '../tools/tool-error.js';
import { WordPressError } from '../client/index.js';
import { createCategory } from '../tools/taxonomy/create-category.js';
import { createTag } from '../tools/taxonomy/create-tag.js';
import { createTerm } from '../tools/taxonomy/create-term.js';
import { deleteCategory } from '../tools/taxonomy/delete-category.js';
import { deleteTag } from '../tools/taxonomy/delete-tag.js';
import { deleteTerm } from '../tools/taxonomy/delete-term.js';
import { updateCategory } from '../tools/taxonomy/update-category.js';
import { updateTag } from '../tools/taxonomy/update-tag.js';
import { updateTerm } from '../tools/taxonomy/update-term.js';
import { deleteUser } from '../tools/users/delete-user.js';
import { disableUser } from '../tools/users/disable-user.js';
import { enableUser } from '../tools/users/enable-user.js';
import { setUserRole } from '../tools/users/set-user-role.js';
import { updateUser } from '../tools/users/update-user.js';
import { addUserToSite } from '../tools/users/add-user-to-site.js';
import { removeUserFromSite } from '../tools/users/remove-user-from-site.js';
import { grantSuperAdmin } from '../tools/users/grant-super-admin.js';
import { revokeSuperAdmin } from '../tools/users/revoke-super-admin.js';
import { refuseStrongerAccount, refuseStrongerRole } from '../tools/users/guards.js';
import { rolePowers, withPowers } from '../tools/users/risk.js';
import { roleLines } from './undo-review-roles.js';

/**
 * An undo asks what the forward tools would ask for the same change (issue #33): the engine's
 * dry run (what will be written, conflicts left out — never the entry's summary, which is
 * only text in a file) is turned into forward calls, and each call's own review (its preview
 * where it has none) says it, with its refusals: an undo of a demotion reads as set-user-role
 * ("give ghopper the role administrator (manage_options, …) (was: subscriber)"), of a disable as enable-user,
 * of create-user as delete-user (posts, "cannot be undone"), of delete-term as create-term,
 * of revoke-super-admin as grant-super-admin, of remove-user-from-site as add-user-to-site.
 */
export async function describePlan(context: ToolContext, plan: UndoPlan): Promise<string> {
  const { now, after } = plan;
  const lines = [
    // Roles first: a deleted role is back before its accounts get it again (restore-roles.ts).
    ...(await roleLines(context, now, after)),
    ...(await termLines(context, now, after)),
    ...(await postLines(context, now, after)),
    ...(await userLines(context, now, after)),
    ...(await networkLines(context, now, after)),
    // Posts taken out of the Trash (restore-trash.ts) have no forward tool: counted, not listed one by one.
    ...trashLine(plan.report.restored),
  ];
  const conflicts = plan.report.conflicts;
  const list = (items: string[]) => items.slice(0, 8).join(', ') + (items.length > 8 ? ` and ${items.length - 8} more` : '');
  const parts = [`undo ${undoLabel(plan.entry)}: ${lines.length ? lines.join('; ') : 'nothing to write'}`];
  if (conflicts.length)
    parts.push(`left as they are: ${list(conflicts.map((c) => `${c.item}: ${c.reason}`))}`);
  if (!lines.length && plan.report.skipped.length) parts.push(`already as they were: ${list(plan.report.skipped)}`);
  return parts.join('; ');
}

/** "12 posts back out of the Trash (publish 10, draft 2)" from the engine's "post 31 'Title' (out of the Trash, publish)". */
function trashLine(restored: readonly string[]): string[] {
  const byStatus = new Map<string, number>();
  for (const item of restored) {
    const status = /\(out of the Trash, ([^)]+)\)$/.exec(item)?.[1];
    if (status) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
  const n = [...byStatus.values()].reduce((a, b) => a + b, 0);
  if (!n) return [];
  const statuses = [...byStatus].map(([status, count]) => `${status} ${count}`).join(', ');
  return [`${n} post${n === 1 ? '' : 's'} back out of the Trash (${statuses})`];
}

/**
 * "cX (set-user-role)": the entry's id and tool, which come from the journal file, so only the
 * characters an id and a tool name have (an edited entry cannot put words into the question).
 */
export function undoLabel(entry: { change_id: string; tool: string }): string {
  const clean = (text: unknown) => String(text).replace(/[^a-z0-9-]/gi, '').slice(0, 40) || '?';
  return `${clean(entry.change_id)} (${clean(entry.tool)})`;
}

/** The forward call's own words: its review, else its dry run's `would`. */
async function forward(context: ToolContext, tool: AnyToolDefinition, raw: Record<string, unknown>): Promise<string> {
  const parsed = parseParams(tool, raw);
  if (!parsed.success) throw new Error(`undo-review: ${tool.name} ${JSON.stringify(raw)} does not parse`);
  if (tool.review) return (await tool.review(context, parsed.data as never)).summary;
  const preview = await tool.preview?.(context, parsed.data as never);
  return String(preview?.would ?? `${tool.name} ${JSON.stringify(raw)}`);
}

const changed = <T>(a: T, b: T) => JSON.stringify(a) !== JSON.stringify(b);

async function userLines(context: ToolContext, now: UndoState, after: UndoState): Promise<string[]> {
  const lines: string[] = [];
  for (const [key, want] of Object.entries(after.users ?? {})) {
    const is = now.users?.[key] ?? null;
    if (!changed(is, want) || !is) continue;
    const id = Number(key);
    // Refusals (a stronger account, a role above the caller's, the last administrator) propagate:
    // the undo fails before anyone is asked, as the forward call would.
    if (!want) {
      const me = await context.client.connect();
      lines.push(await forward(context, deleteUser, { id, reassign_to: me.id }));
      continue;
    }
    if (want.disabled === true && is.disabled !== true) lines.push(await forward(context, disableUser, { id }));
    if (changed([...is.roles].sort(), [...want.roles].sort())) lines.push(await recreatedRoleLine(context, id, is, want, after));
    const fields: Record<string, unknown> = {};
    if (want.email !== is.email) fields.email = want.email;
    if (want.name !== is.name) fields.name = want.name;
    if (want.bio !== is.bio) fields.bio = want.bio;
    if (Object.keys(fields).length) lines.push(await forward(context, updateUser, { id, ...fields }));
    if (want.disabled === false && is.disabled === true) lines.push(await forward(context, enableUser, { id }));
  }
  return lines;
}

/**
 * A network account's super admin state and sites (restore-network.ts), in the network tools'
 * own words: "make ghopper a super admin: every capability on every site …", "add bob to site 3
 * as editor (manage_categories, …)". Their refusals propagate, as the forward call's would; a
 * site the account must leave while it has posts there gets the engine's answer (a conflict).
 */
async function networkLines(context: ToolContext, now: UndoState, after: UndoState): Promise<string[]> {
  const lines: string[] = [];
  for (const [key, want] of Object.entries(after.network_users ?? {})) {
    const is = now.network_users?.[key];
    if (!want || !is) continue;
    const user_id = Number(key);
    if (want.super_admin !== is.super_admin)
      lines.push(await forward(context, want.super_admin ? grantSuperAdmin : revokeSuperAdmin, { user_id }));
    for (const [site, roles] of Object.entries(want.sites)) {
      if (!is.sites[site]) lines.push(await forward(context, addUserToSite, { user_id, site, role: roles[0] ?? '' }));
    }
    for (const site of Object.keys(is.sites)) {
      if (want.sites[site]) continue;
      try {
        lines.push(await forward(context, removeUserFromSite, { user_id, site }));
      } catch (err) {
        if (!(err instanceof ToolError && err.code === 'content_needs_heir')) throw err;
        // The plugin refuses it too; an undo does not choose who gets the posts (the engine: a conflict).
        lines.push(`${is.username} stays on site ${site}: ${err.message.replace(/ Nothing was changed\.$/, '')}, and an undo does not choose who gets them`);
      }
    }
  }
  return lines;
}

/**
 * What the user's roles become, in set-user-role's own words (#36, #48): "give alice the role
 * administrator (manage_options, promote_users, …) (was: subscriber)" — the power it gives back
 * named as the forward call names it, its refusals (a stronger account, a role above the
 * caller's, the last administrator) checked by its review. Several roles or none: the same
 * words and checks for each role.
 */
async function rolesLine(context: ToolContext, id: number, is: UserState, want: UserState): Promise<string> {
  const [only] = want.roles;
  if (want.roles.length === 1 && only) return forward(context, setUserRole, { id, role: only });
  const { client } = context;
  await refuseStrongerAccount(client, id, 'change the roles of');
  for (const role of want.roles) await refuseStrongerRole(client, role);
  const was = is.roles.join(', ') || 'no role';
  if (!want.roles.length) return `take every role from ${is.username} (was: ${was})`;
  const powersOf = await rolePowers(client);
  return `give ${is.username} the roles ${want.roles.map((role) => withPowers(role, powersOf(role))).join(', ')} (was: ${was})`;
}

/**
 * Accounts given back a role this same undo recreates first (an undo of delete-role): the role
 * is not on the site yet, so set-user-role's question cannot be asked; the role's own line (its
 * power named) comes first, and this says who gets it.
 */
async function recreatedRoleLine(context: ToolContext, id: number, is: UserState, want: UserState, after: UndoState): Promise<string> {
  const back = want.roles.filter((role) => after.roles?.[role] && !is.roles.includes(role));
  if (!back.length) return rolesLine(context, id, is, want);
  await refuseStrongerAccount(context.client, id, 'change the roles of');
  return `give ${is.username} the role${want.roles.length === 1 ? '' : 's'} ${want.roles.join(', ')} again (was: ${is.roles.join(', ') || 'no role'})`;
}

function termTools(taxonomy: TaxonomyRef) {
  if (taxonomy.taxonomy === 'category') return { create: createCategory, update: updateCategory, remove: deleteCategory, extra: {} };
  if (taxonomy.taxonomy === 'post_tag') return { create: createTag, update: updateTag, remove: deleteTag, extra: {} };
  return { create: createTerm, update: updateTerm, remove: deleteTerm, extra: { taxonomy: taxonomy.taxonomy } };
}

async function termLines(context: ToolContext, now: UndoState, after: UndoState): Promise<string[]> {
  const taxonomy = after.taxonomy ?? now.taxonomy;
  if (!taxonomy) return [];
  const tools = termTools(taxonomy);
  const lines: string[] = [];
  for (const [key, want] of Object.entries(after.terms ?? {})) {
    const is = now.terms?.[key] ?? null;
    if (!changed(is, want)) continue;
    const id = Number(key);
    const name = `${taxonomy.noun} '${(want ?? is)?.name}'`;
    if (!want) lines.push(await termLine(context, tools.remove, { ...tools.extra, id }, `delete the ${name} (id ${id})`));
    else if (!is) lines.push(await termLine(context, tools.create, { ...tools.extra, ...created(taxonomy, want) }, `create the ${name} again (a new id)`));
    else lines.push(await termLine(context, tools.update, { ...tools.extra, id, ...fieldsOf(is, want) }, `change the ${name} (id ${id}) back`));
  }
  return lines;
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
 * freed by another change back) gives way to the plain line.
 */
async function termLine(
  context: ToolContext,
  tool: AnyToolDefinition,
  params: Record<string, unknown>,
  plain: string,
): Promise<string> {
  try {
    return await forward(context, tool, params);
  } catch (err) {
    if (err instanceof ToolError || (err instanceof WordPressError && (err.status ?? 500) < 500)) return plain;
    throw err;
  }
}

/** Posts' terms, counted per term: "category 'News' back on 12 posts", as the merge moved them. */
async function postLines(context: ToolContext, now: UndoState, after: UndoState): Promise<string[]> {
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
  const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;
  const line = (t: number, n: number, how: string) => `${taxonomy.noun} ${names.get(t) ?? t} ${how} ${posts(n)}`;
  return [
    ...[...back].map(([t, n]) => line(t, n, 'back on')),
    ...[...off].map(([t, n]) => line(t, n, 'taken off')),
  ];
}

async function termNames(
  context: ToolContext,
  taxonomy: TaxonomyRef,
  ids: number[],
  now: UndoState,
  after: UndoState,
): Promise<Map<number, string>> {
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
