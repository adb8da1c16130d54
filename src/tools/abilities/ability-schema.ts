import type { Ability, JsonSchema } from './abilities-api.js';
import { clientSchema } from './ability-input.js';

/**
 * An ability's input schema in the model's terms (describe-ability), and, without its bounds, as
 * the params of an ability made a tool of its own: the keywords tool-calling providers take,
 * draft-04's boolean `exclusiveMinimum` as a number, `oneOf` as `anyOf`. The input is still checked
 * against the site's whole schema (ability-input.ts); this is only what the model reads.
 */
const KEPT = new Set(['type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', 'format', 'pattern', 'minItems', 'maxItems', 'default']);
/**
 * Bounds: describe-ability shows them; a tool's params leave them out, as our own tools do
 * (tools/schema.ts typeOnly): Anthropic's strict tools and Gemini refuse some, and they cost tokens
 * on every request. They are checked all the same.
 */
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'uniqueItems']);

export function modelSchema(schema: JsonSchema, options: { bounds?: boolean } = { bounds: true }): JsonSchema {
  return tidy(clientSchema(schema), options.bounds !== false);
}

function tidy(schema: JsonSchema, bounds: boolean): JsonSchema {
  const out: JsonSchema = {};
  const sub = (value: unknown): unknown => (value && typeof value === 'object' && !Array.isArray(value) ? tidy(value as JsonSchema, bounds) : value);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'oneOf' && Array.isArray(value) && !schema.anyOf) out.anyOf = value.map(sub);
    else if (key === 'const' && !schema.enum) out.enum = [value];
    else if (KEPT.has(key) || (bounds && BOUNDS.has(key))) out[key] = value;
  }
  // draft-04: `exclusiveMinimum: true` qualifies `minimum`; later drafts give the bound itself.
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  if (out.properties && typeof out.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, unknown>).map(([k, v]) => [k, sub(v)]));
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = sub(out.items);
  else if (Array.isArray(out.items)) delete out.items;
  if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = sub(out.additionalProperties);
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map(sub);
  // An object or list without a type (WordPress infers none) would be refused by strict providers.
  if (out.type === undefined && out.properties) out.type = 'object';
  return out;
}


/** Whether the input is an object of named properties (an ability's tool then takes them as its params). */
export function takesObject(schema: JsonSchema | undefined): schema is JsonSchema & { properties: Record<string, JsonSchema> } {
  if (!schema) return false;
  const type = schema.type;
  const object = type === 'object' || (type === undefined && typeof schema.properties === 'object');
  return object && typeof schema.properties === 'object' && schema.properties !== null && !Array.isArray(schema.properties);
}

/**
 * The params an ability takes as a tool of its own, as the model is sent them: its input's
 * properties (an object input), else one `input` param (a string, a list …, or an object with a
 * `dry_run` property, which is ours), else none. MCP's and the providers' tool params are always an
 * object (WordPress's MCP adapter wraps the same way). `wrapped`: the input is the `input` param.
 */
export function abilityParams(ability: Ability): { schema: JsonSchema; wrapped: boolean } {
  const schema = ability.input_schema && modelSchema(ability.input_schema, { bounds: false });
  if (!schema) return { schema: { type: 'object', properties: {}, additionalProperties: false }, wrapped: false };
  if (takesObject(schema) && !Object.hasOwn(schema.properties, 'dry_run')) {
    const { properties, required } = schema;
    const open = schema.additionalProperties !== false;
    return {
      schema: { type: 'object', properties, ...(Array.isArray(required) && required.length && { required }), additionalProperties: open },
      wrapped: false,
    };
  }
  const needed = !('default' in schema);
  return { schema: { type: 'object', properties: { input: schema }, ...(needed && { required: ['input'] }), additionalProperties: false }, wrapped: true };
}
