/**
 * A tool's JSON schema in the form OpenAI's strict function calling (Structured Outputs) and
 * Anthropic's strict tool use accept: every object has `additionalProperties: false` and lists
 * every property in `required`; a param that was optional becomes nullable (the model sends
 * null for "not given", which params.ts reads as left out); only keywords strict mode supports.
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
type Schema = Record<string, unknown>;

/** Keywords strict mode rejects; the zod schema still enforces them on every call. */
const UNSUPPORTED = new Set([
  '$schema',
  'default',
  'minLength',
  'maxLength',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'examples',
]);

export function toStrictSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED.has(key)) continue;
    out[key] = value;
  }
  if (isObject(out)) {
    const properties = (out.properties ?? {}) as Record<string, Schema>;
    const required = new Set((out.required as string[] | undefined) ?? []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => {
        const strict = toStrictSchema(property);
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (out.items && typeof out.items === 'object') out.items = toStrictSchema(out.items as Schema);
  if (Array.isArray(out.anyOf)) out.anyOf = (out.anyOf as Schema[]).map(toStrictSchema);
  return out;
}

function isObject(schema: Schema): boolean {
  return schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
}

/** `T` → `T | null`, written the way OpenAI's docs do (`"type": ["string", "null"]`). */
function nullable(schema: Schema): Schema {
  if (Array.isArray(schema.anyOf)) {
    const anyOf = schema.anyOf as Schema[];
    return anyOf.some((s) => s.type === 'null') ? schema : { ...schema, anyOf: [...anyOf, { type: 'null' }] };
  }
  const out: Schema = { ...schema };
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}
