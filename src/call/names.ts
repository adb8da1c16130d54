import type { z } from 'zod';
import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import { type Found, networkUsers, siteUsers, taxonomyTerms } from './name-lookup.js';

/**
 * Names where ids go (#52.1, #60.4): every param that names a user also takes a login or an
 * email, every term id a slug (of the call's taxonomy), as wp-cli does. One step before
 * validation, driven by the param's name and the tool's (no tool declares it; a registry-wide
 * test, test/unit/names-coverage.test.ts, fails on a number param that is neither a name's nor in
 * IDS_ONLY): an unknown or ambiguous name is an error listing the candidates. A string of digits
 * is always an id (what list-users and the category tools tell the model); only other strings in
 * number params are looked up, so a call with ids costs no request.
 */
export type NameKind = { user: true; network?: true } | { taxonomy: string };

const USER_PARAMS = new Set(['user_id', 'user_ids', 'reassign_to', 'author']);
const TAXONOMY_OF_PARAM: Record<string, string> = { category_ids: 'category', tag_ids: 'post_tag' };
const TERM_PARAMS = new Set(['term_ids', 'source_ids', 'target_id', 'parent', 'exclude_ids']);

/**
 * Number params that are neither a user's nor a term's id, each with why: they take numbers only.
 * A new number param must be a name's (above) or be listed here (names-coverage.test.ts).
 */
export const IDS_ONLY: Readonly<Record<string, string>> = {
  post_ids: 'posts have no login or slug a person gives (find-posts lists ids)',
  limit: 'a count',
  max_posts: 'a count',
};

/** What the param names, for this tool and call; undefined when it takes ids only. */
export function nameKind(tool: AnyToolDefinition, key: string, params: Record<string, unknown>): NameKind | undefined {
  // The network tools act on any account of the network, a member of this site or not (#60.4).
  const user: NameKind = tool.network || tool.networkWide === true ? { user: true, network: true } : { user: true };
  if (USER_PARAMS.has(key)) return user;
  const fixed = TAXONOMY_OF_PARAM[key];
  if (fixed) return { taxonomy: fixed };
  const own = /-(category|categories)$/.test(tool.name) ? 'category' : /-(tag|tags)$/.test(tool.name) ? 'post_tag' : undefined;
  // The call's taxonomy: `taxonomy`, or where its terms are now (migrate-terms' `from_taxonomy`).
  const taxonomyParam = typeof params.taxonomy === 'string' ? params.taxonomy : params.from_taxonomy;
  const given = typeof taxonomyParam === 'string' ? taxonomyParam : undefined;
  if (key === 'id' && tool.toolkit === 'users' && /(^|-)users?(-|$)/.test(tool.name)) return user;
  if (key === 'id' || TERM_PARAMS.has(key)) {
    const taxonomy = own ?? (/-terms?$/.test(tool.name) || key !== 'id' ? given : undefined);
    return taxonomy ? { taxonomy } : undefined;
  }
  return undefined;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType };
const defOf = (s: z.ZodType | undefined) => (s as unknown as { _zod?: { def?: Def } } | undefined)?._zod?.def;
function baseType(schema: z.ZodType | undefined): Def | undefined {
  let d = defOf(schema);
  while (d && (d.innerType || (d.type === 'pipe' && d.in))) d = defOf(d.innerType ?? d.in);
  return d;
}
const isName = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && !/^\s*\d+\s*$/.test(v);

/** The params that give names where ids go: key, whether a list, and what they name. */
function namedParams(tool: AnyToolDefinition, params: Record<string, unknown>): Array<[key: string, list: boolean, kind: NameKind]> {
  const shape = tool.schema.shape as Record<string, z.ZodType>;
  const named: Array<[string, boolean, NameKind]> = [];
  for (const [key, value] of Object.entries(params)) {
    if (!Object.hasOwn(shape, key)) continue;
    const base = baseType(shape[key]);
    const list = base?.type === 'array' && Array.isArray(value);
    const numeric = list ? baseType(base?.element)?.type === 'number' : base?.type === 'number';
    if (!numeric || !(list ? (value as unknown[]).some(isName) : isName(value))) continue;
    const kind = nameKind(tool, key, params);
    if (kind) named.push([key, list, kind]);
  }
  return named;
}

/** The params with each name looked up to its id on the context's site. */
export async function resolveNames(tool: AnyToolDefinition, context: ToolContext, raw: unknown): Promise<unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const params = raw as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [key, list, kind] of namedParams(tool, params)) {
    const value = params[key];
    const look = (v: unknown) => (isName(v) ? lookUp(context, kind, v.trim(), key) : Promise.resolve(v));
    out ??= { ...params };
    out[key] = list ? await Promise.all((value as unknown[]).map(look)) : await look(value);
  }
  return out ?? raw;
}

/**
 * The params with each name replaced by an id no site has (distinct per name), without a request:
 * the call is validated with these first, so an invalid call is refused before any name is looked up.
 */
export function withPlaceholderIds(tool: AnyToolDefinition, raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const params = raw as Record<string, unknown>;
  let next = 9_000_000_000_000;
  const stand = (v: unknown) => (isName(v) ? next++ : v);
  let out: Record<string, unknown> | undefined;
  for (const [key, list] of namedParams(tool, params)) {
    out ??= { ...params };
    out[key] = list ? (params[key] as unknown[]).map(stand) : stand(params[key]);
  }
  return out ?? raw;
}

async function lookUp(context: ToolContext, kind: NameKind, name: string, key: string): Promise<number> {
  const found = 'user' in kind ? await (kind.network ? networkUsers : siteUsers)(context, name) : await taxonomyTerms(context, kind.taxonomy, name);
  const exact = found.filter((f) => f.exact);
  if (exact.length === 1) return (exact[0] as Found).id;
  const what = 'user' in kind ? (kind.network ? 'account of the network' : 'user') : `${kind.taxonomy} term`;
  const list = (exact.length ? exact : found).slice(0, 10).map((f) => `${f.label} (id ${f.id})`);
  // Never a silent choice (#58.4): a login that is another account's email names two accounts.
  if (exact.length > 1)
    throw new ToolError('name_ambiguous', `${key}: "${name}" names ${exact.length} ${what}s: ${list.join(', ')}.`, {
      hint: `Give the id of the one you mean: ${exact.slice(0, 3).map((f) => `${key}=${f.id}`).join(' or ')}.`,
      details: { candidates: exact.map((f) => f.id) },
    });
  throw new ToolError('name_not_found', `${key}: no ${what} "${name}"${list.length ? `; close: ${list.join(', ')}` : ''}.`, {
    hint: 'user' in kind ? 'Give an id, a login or an email (list-users shows them).' : 'Give an id or the slug (the list tools show them).',
    ...(list.length ? { details: { candidates: found.slice(0, 10).map((f) => f.id) } } : {}),
  });
}

/**
 * Whether the tool's param may be given by name (a login, an email, a slug), whatever the call's
 * taxonomy: what the schema the model sees says (`modelSchema`).
 */
export function takesNames(tool: AnyToolDefinition, key: string): 'login' | 'slug' | undefined {
  const kind = nameKind(tool, key, { taxonomy: 'any' });
  return kind ? ('user' in kind ? 'login' : 'slug') : undefined;
}

/**
 * A tool's JSON schema as a model is sent it: each param that takes a name where an id goes is
 * `"type": "string"` (items too), which costs no token more than "integer" (a union would cost 3
 * a param, 33 params in the default set: past the model's token budget). A number written as a
 * string is that number (tools/params.ts), so ids keep working. MCP's list passes
 * `['string', 'integer']` (#60.8): clients that validate arguments against it (LangChain's MCP
 * adapters) then take `{id: 142}` as well as `{id: "news"}`; that list is not the model's request.
 */
export function namedSchema(
  tool: AnyToolDefinition,
  schema: Record<string, unknown>,
  type: 'string' | ['string', 'integer'] = 'string',
): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties) return schema;
  let out: Record<string, Record<string, unknown>> | undefined;
  for (const [key, property] of Object.entries(properties)) {
    if (!takesNames(tool, key)) continue;
    const items = property.items as Record<string, unknown> | undefined;
    const numeric = (p: Record<string, unknown> | undefined) => p?.type === 'integer' || p?.type === 'number';
    const named = numeric(property)
      ? { ...withoutBounds(property), type }
      : property.type === 'array' && numeric(items)
        ? { ...property, items: { ...withoutBounds(items as Record<string, unknown>), type } }
        : undefined;
    if (!named) continue;
    out ??= { ...properties };
    out[key] = named;
  }
  return out ? { ...schema, properties: out } : schema;
}

/** Number bounds mean nothing on a string. */
function withoutBounds(schema: Record<string, unknown>): Record<string, unknown> {
  const { minimum: _min, maximum: _max, exclusiveMinimum: _emin, exclusiveMaximum: _emax, ...rest } = schema;
  return rest;
}

/** Whether an envelope gives a name where its tool takes an id (then a site is needed to look it up). */
export function namesIn(tool: AnyToolDefinition, params: Record<string, unknown>): boolean {
  return namedParams(tool, params).length > 0;
}
