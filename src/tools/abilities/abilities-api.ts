import { type WordPressClient, WordPressError } from '../../client/index.js';
import { ToolError } from '../tool-error.js';

/**
 * WordPress's Abilities API over REST (6.9+): what plugins declare an agent may do, each with an
 * input JSON schema, a permission callback and annotations.
 * https://developer.wordpress.org/apis/abilities-api/ — the routes:
 * wp-includes/rest-api/endpoints/class-wp-rest-abilities-v1-list-controller.php and
 * class-wp-rest-abilities-v1-run-controller.php.
 */
export const ABILITIES_NAMESPACE = 'wp-abilities/v1';
const BASE = `/${ABILITIES_NAMESPACE}/abilities`;

/** Why the abilities toolset is absent on a site (its REST index has no wp-abilities/v1). */
export const ABILITIES_ABSENT = 'the site has no Abilities API (WordPress 6.9 added it; this site runs an older WordPress)';

/** An ability's name: `namespace/name`, lowercase letters, digits and dashes (WP_Abilities_Registry::register). */
export const ABILITY_NAME = /^[a-z0-9-]+\/[a-z0-9-]+$/;

/** `null`: the registering plugin did not say (WP_Ability::$default_annotations). */
export interface AbilityAnnotations {
  readonly?: boolean | null;
  destructive?: boolean | null;
  idempotent?: boolean | null;
}

export type JsonSchema = Record<string, unknown>;

export interface Ability {
  name: string;
  label: string;
  description: string;
  category: string;
  /** Undefined when the ability takes no input (PHP's empty array is `[]` on the wire). */
  input_schema?: JsonSchema;
  output_schema?: JsonSchema;
  annotations: AbilityAnnotations;
}

interface RawAbility {
  name?: unknown;
  label?: unknown;
  description?: unknown;
  category?: unknown;
  input_schema?: unknown;
  output_schema?: unknown;
  meta?: { annotations?: unknown };
}

const schemaOf = (value: unknown): JsonSchema | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length ? (value as JsonSchema) : undefined;

const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

function toAbility(raw: RawAbility): Ability {
  const annotations = (raw.meta?.annotations ?? {}) as Record<string, unknown>;
  return {
    name: String(raw.name ?? ''),
    label: String(raw.label ?? ''),
    description: String(raw.description ?? ''),
    category: String(raw.category ?? ''),
    input_schema: schemaOf(raw.input_schema),
    output_schema: schemaOf(raw.output_schema),
    annotations: { readonly: flag(annotations.readonly), destructive: flag(annotations.destructive), idempotent: flag(annotations.idempotent) },
  };
}

/** Whether the site's REST API offers abilities (the index's namespaces: read once a client). */
export async function hasAbilitiesApi(client: WordPressClient): Promise<boolean> {
  return (await client.namespaces()).includes(ABILITIES_NAMESPACE);
}

/** Refuses, saying why, on a site without the Abilities API. */
export async function requireAbilitiesApi(client: WordPressClient): Promise<void> {
  if (await hasAbilitiesApi(client)) return;
  throw new ToolError('abilities_unavailable', `This site's REST API has no ${ABILITIES_NAMESPACE}: ${ABILITIES_ABSENT}, so it has no abilities to find or run.`, {
    hint: 'Update WordPress to 6.9 or later; the other toolsets work as they are.',
  });
}

/** Every ability the site shows in REST, without schemas (the list tool's fields). */
export async function listAbilities(client: WordPressClient): Promise<Ability[]> {
  await requireAbilitiesApi(client);
  const raw = await client.all<RawAbility>(BASE, { _fields: 'name,label,description,category,meta' });
  return raw.map(toAbility);
}

/** One ability with its schemas, read from the site now; `ability_not_found` when it has none of that name. */
export async function getAbility(client: WordPressClient, name: string): Promise<Ability> {
  await requireAbilitiesApi(client);
  try {
    return toAbility(await client.get<RawAbility>(`${BASE}/${name}`));
  } catch (err) {
    if (err instanceof WordPressError && err.status === 404) throw notFound(name);
    throw err;
  }
}

function notFound(name: string): ToolError {
  return new ToolError('ability_not_found', `This site has no ability "${name}" (or does not show it in REST).`, {
    hint: 'find-abilities lists the abilities this site offers; the name is namespace/name.',
  });
}

/**
 * The HTTP method the run route takes for this ability (validate_request_method): read-only →
 * GET, destructive and idempotent → DELETE (both with the input in the query string), else POST.
 */
export function runMethod(annotations: AbilityAnnotations): 'GET' | 'DELETE' | 'POST' {
  if (annotations.readonly) return 'GET';
  if (annotations.destructive && annotations.idempotent) return 'DELETE';
  return 'POST';
}

/** The ability run on the site with this input (undefined: none), as the signed-in account. */
export async function runAbilityRequest(client: WordPressClient, ability: Ability, input: unknown): Promise<unknown> {
  const path = `${BASE}/${ability.name}/run`;
  const method = runMethod(ability.annotations);
  try {
    if (method === 'POST') return await client.post(path, input === undefined ? {} : { input });
    const query = input === undefined ? '' : phpQuery('input', input).join('&');
    const url = query ? `${path}?${query}` : path;
    return method === 'GET' ? await client.get(url) : await client.delete(url);
  } catch (err) {
    throw siteRefusal(err, ability, client.username);
  }
}

/**
 * What the plugin's dry run answers (abilities-dry-run.php, 0.7.0): the input as the ability
 * would receive it, after the site validated it and the permission callback allowed it.
 */
export async function checkAbility(client: WordPressClient, ability: Ability, input: unknown): Promise<{ input: unknown }> {
  try {
    return await client.post<{ input: unknown }>('/cms-admin/v1/abilities/dry-run', { name: ability.name, ...(input !== undefined && { input }) });
  } catch (err) {
    throw siteRefusal(err, ability, client.username);
  }
}

/**
 * The site's refusals in our words, naming the ability: its permission callback (401/403), its
 * own input checks (400), a name it no longer has (404). Any other error is the ability's own.
 */
export function siteRefusal(err: unknown, ability: Ability, username: string): unknown {
  if (!(err instanceof WordPressError)) return err;
  const named = `${ability.name} ("${ability.label}")`;
  if (err.status === 401 || err.status === 403) {
    return new ToolError('ability_refused', `The site refused to run ${named} for ${username}: ${err.message} (${err.code}).`, {
      hint: 'The ability’s own permission callback decides who may run it; use an account it allows, or ask the site’s administrator. Nothing was run.',
      details: { ability: ability.name, site_code: err.code },
    });
  }
  if (err.status === 404 && err.code === 'rest_ability_not_found') return notFound(ability.name);
  if (err.status === 400 && err.code !== 'rest_invalid_param') {
    return new ToolError('ability_input_refused', `The site refused the input of ${named}: ${err.message} (${err.code}).`, {
      hint: 'describe-ability shows the input it takes. Nothing was run.',
      details: { ability: ability.name, site_code: err.code },
    });
  }
  return err;
}

/**
 * A value as PHP reads a query string (`input[a][0]=x`): GET and DELETE runs carry the input
 * there. Booleans as true/false and numbers as text, which WordPress's schema validation takes
 * (rest_is_boolean, rest_is_integer); an empty object or list as an empty value, which it reads
 * as empty (rest_is_object, rest_is_array). null has no query form and is left out.
 */
export function phpQuery(key: string, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (!entries.length) return [`${encodeURIComponent(key)}=`];
    return entries.flatMap(([k, v]) => phpQuery(`${key}[${k}]`, v));
  }
  return [`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`];
}
