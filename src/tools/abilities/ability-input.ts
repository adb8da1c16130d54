import type { JsonSchema } from './abilities-api.js';

/**
 * An ability's input checked against its own JSON schema before any request runs it (issue #62),
 * with @cfworker/json-schema: drafts 4 (WordPress's), 7, 2019-09 and 2020-12, no code generation,
 * no dependencies, and already installed with @langchain/core (our peer), so it adds no package.
 * ajv would add five packages and generated code; zod 4's fromJSONSchema is marked experimental
 * and refuses keywords (not, if/then/else) an ability's schema may use. Loaded at the first ability
 * (invoke's start-up loads no validator: test/cli/invoke-start.test.ts).
 */
type CfWorker = typeof import('@cfworker/json-schema');
let validatorModule: CfWorker | undefined;

/** Loads the validator; every caller of `inputProblems` awaits it first (the schemas validate synchronously). */
export async function loadValidator(): Promise<void> {
  validatorModule ??= await import('@cfworker/json-schema');
}

/** One thing wrong with an input: where (`input.product.status`) and what. */
export interface InputProblem {
  path: Array<string | number>;
  message: string;
}

/**
 * The schema as clients should read it: WordPress 6.9 publishes its own conveniences as they are
 * (7.1 converts them: wp_prepare_json_schema_for_client), so `required: true` on a property
 * becomes the parent's `required` list, and a `required` that is not a list goes.
 */
export function clientSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (typeof out.required === 'boolean') delete out.required;
  const properties = out.properties as Record<string, JsonSchema> | undefined;
  if (properties && typeof properties === 'object') {
    const flagged: string[] = [];
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, property]) => {
        if (property && typeof property === 'object' && property.required === true) flagged.push(key);
        return [key, property && typeof property === 'object' ? clientSchema(property) : property];
      }),
    );
    if (!Array.isArray(out.required) && flagged.length) out.required = flagged;
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    const sub = out[key];
    if (sub && typeof sub === 'object' && !Array.isArray(sub)) out[key] = clientSchema(sub as JsonSchema);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((s) => (s && typeof s === 'object' ? clientSchema(s as JsonSchema) : s));
  }
  return out;
}

const typesOf = (schema: JsonSchema | undefined): string[] =>
  !schema ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];

/**
 * The input as WordPress's own validation reads it (rest_is_integer, rest_is_boolean): a number
 * written as text where the schema takes a number, "true"/"false" where it takes a boolean. So an
 * input the site would accept is not refused here; what runs is the typed value.
 */
export function coerceInput(value: unknown, schema: JsonSchema | undefined): unknown {
  const types = typesOf(schema);
  if (typeof value === 'string' && !types.includes('string')) {
    if ((types.includes('integer') || types.includes('number')) && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
    if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  }
  if (Array.isArray(value) && schema?.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    return value.map((item) => coerceInput(item, schema.items as JsonSchema));
  }
  const properties = schema?.properties as Record<string, JsonSchema> | undefined;
  if (value && typeof value === 'object' && !Array.isArray(value) && properties) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Object.hasOwn(properties, k) ? coerceInput(v, properties[k]) : v]));
  }
  return value;
}

/** Which draft the schema is written in: WordPress's are draft-04 (its REST schemas say so). */
function draftOf(schema: JsonSchema): '4' | '7' | '2019-09' | '2020-12' {
  const declared = String(schema.$schema ?? '');
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  return '4';
}

/** Keywords whose errors only repeat a deeper one ("Property "a" does not match schema"). */
const CASCADING = new Set(['properties', 'items', 'additionalItems', 'false', 'allOf', '$ref', 'prefixItems', 'unevaluatedProperties']);

/**
 * What is wrong with `input` for this schema, in the words a model acts on; [] when it is valid.
 * An ability without an input schema takes no input (WP_Ability::validate_input).
 */
export function inputProblems(schema: JsonSchema | undefined, input: unknown): InputProblem[] {
  if (!schema) return input === undefined || input === null ? [] : [{ path: ['input'], message: 'this ability takes no input' }];
  // No input: WordPress gives the schema's default (normalize_input), which it then validates.
  if (input === undefined && 'default' in schema) return [];
  if (!validatorModule) throw new Error('ability-input: loadValidator() was not awaited before validating an input.');
  const result = new validatorModule.Validator(schema as never, draftOf(schema), false).validate(input === undefined ? null : input);
  if (result.valid) return [];
  const deepest = result.errors.filter((e) => !CASCADING.has(e.keyword));
  const errors = deepest.length ? deepest : result.errors;
  const seen = new Set<string>();
  const problems: InputProblem[] = [];
  for (const error of errors) {
    const path = ['input', ...error.instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean).map(unescapePointer)];
    const message = input === undefined && error.instanceLocation === '#' ? 'is required (this ability takes an input)' : wordsOf(error.error);
    const key = `${path.join('.')}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path, message });
  }
  return problems.slice(0, 10);
}

const unescapePointer = (part: string) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');

/** cfworker's sentences, without its doubled spaces and "Instance" wording. */
function wordsOf(error: string): string {
  return error.replace(/\s+/g, ' ').replace(/^Instance /, '').replace(/\.$/, '');
}

/** A problem as a zod issue of the schema that found it (zod's "custom" kind: not an error code of ours). */
export function zodIssue(problem: InputProblem, path = problem.path): { code: typeof ZOD_CUSTOM; path: Array<string | number>; message: string } {
  return { code: ZOD_CUSTOM, path, message: problem.message };
}
const ZOD_CUSTOM = 'custom';
