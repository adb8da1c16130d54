/**
 * What the providers reject, written down from their published rules, for the scripted servers
 * and the schema tests. Each function returns the problems it finds ([] = accepted), worded
 * like the services' own 400 messages.
 *
 * OpenAI strict function calling / Structured Outputs:
 *   https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 * Anthropic strict tool use: https://docs.anthropic.com/en/docs/agents-and-tools/tool-use
 * Gemini function declarations (OpenAPI 3.0 Schema subset):
 *   https://ai.google.dev/api/caching#Schema
 */
type Schema = Record<string, unknown>;

/** OpenAI and Anthropic: function / tool names. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const OPENAI_STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  // strings
  'pattern',
  'format',
  // numbers
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  // arrays
  'minItems',
  'maxItems',
]);
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** OpenAI's strict-mode rules for one function's `parameters`. */
export function openAiStrictProblems(parameters: Schema, name = 'parameters'): string[] {
  const problems: string[] = [];
  if (parameters.type !== 'object') problems.push(`${name}: the root schema must be an object (not anyOf)`);
  let properties = 0;
  const walk = (node: Schema, path: string, depth: number) => {
    if (depth > 5) problems.push(`${path}: more than 5 levels of nesting`);
    for (const key of Object.keys(node)) {
      // `$schema` is tolerated at the root (zod's export carries it; createAgent sends it).
      if (key === '$schema' && depth === 1) continue;
      if (!OPENAI_STRICT_KEYWORDS.has(key)) problems.push(`${path}: '${key}' is not permitted`);
    }
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    for (const type of types) if (!JSON_TYPES.has(type as string)) problems.push(`${path}: unknown type '${type}'`);
    if (types.length === 0 && !node.anyOf && !node.enum && !node.const && !node.$ref) {
      problems.push(`${path}: schema must have a 'type' key`);
    }
    if (Array.isArray(node.enum)) {
      for (const value of node.enum) {
        const type = value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value;
        const ok = types.length === 0 || types.includes(type) || (type === 'number' && types.includes('integer'));
        if (!ok) problems.push(`${path}: enum value ${JSON.stringify(value)} does not match type ${JSON.stringify(node.type)}`);
      }
    }
    if (types.includes('object')) {
      if (node.additionalProperties !== false) {
        problems.push(`${path}: 'additionalProperties' is required to be supplied and to be false`);
      }
      const props = (node.properties ?? {}) as Record<string, Schema>;
      const required = new Set((node.required as string[] | undefined) ?? []);
      for (const key of Object.keys(props)) {
        if (!required.has(key)) problems.push(`${path}: 'required' is required to include every key in properties; missing '${key}'`);
        properties++;
        walk(props[key]!, `${path}.${key}`, depth + 1);
      }
      for (const key of required) if (!(key in props)) problems.push(`${path}: 'required' names unknown '${key}'`);
    }
    if (node.items && typeof node.items === 'object') walk(node.items as Schema, `${path}[]`, depth + 1);
    if (Array.isArray(node.anyOf)) (node.anyOf as Schema[]).forEach((s, i) => {
        walk(s, `${path}.anyOf[${i}]`, depth + 1);
      });
  };
  walk(parameters, name, 1);
  if (properties > 100) problems.push(`${name}: more than 100 object properties`);
  return problems;
}

/**
 * Anthropic strict tool use (`strict: true` on a tool): the same subset as its structured
 * outputs — additionalProperties false on objects; no numeric or length bounds, no
 * recursive schemas. (Optional properties are allowed there; we send OpenAI's form anyway.)
 */
export function anthropicStrictProblems(schema: Schema, name = 'input_schema'): string[] {
  const problems: string[] = [];
  const unsupported = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength'];
  const walk = (node: Schema, path: string) => {
    for (const key of unsupported) if (key in node) problems.push(`${path}: '${key}' is not supported in strict mode`);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('object') && node.additionalProperties !== false) {
      problems.push(`${path}: additionalProperties must be false for strict tools`);
    }
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) walk(child, `${path}.${key}`);
    if (node.items && typeof node.items === 'object') walk(node.items as Schema, `${path}[]`);
    if (Array.isArray(node.anyOf)) (node.anyOf as Schema[]).forEach((s, i) => {
        walk(s, `${path}.anyOf[${i}]`);
      });
  };
  if (schema.type !== 'object') problems.push(`${name}: input_schema.type must be 'object'`);
  walk(schema, name);
  return problems;
}

const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/**
 * Gemini's function declarations take an OpenAPI 3.0 Schema subset: one `type` per schema
 * (nullable via `nullable: true`, not a type list), none of additionalProperties / $schema /
 * const, and an OBJECT needs non-empty `properties` — a tool without params sends no
 * `parameters` at all.
 */
export function geminiProblems(parameters: Schema | undefined, name = 'parameters'): string[] {
  if (parameters === undefined) return [];
  const problems: string[] = [];
  const walk = (node: Schema, path: string) => {
    for (const key of Object.keys(node)) if (!GEMINI_KEYWORDS.has(key)) problems.push(`${path}: Unknown name "${key}"`);
    if (typeof node.type !== 'string' && !node.anyOf) problems.push(`${path}: type must be one of the OpenAPI types`);
    else if (typeof node.type === 'string' && !GEMINI_TYPES.has(node.type)) problems.push(`${path}: invalid type '${node.type}'`);
    if (node.type === 'object') {
      const props = (node.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(props).length === 0) problems.push(`${path}.properties: should be non-empty for OBJECT type`);
      for (const [key, child] of Object.entries(props)) walk(child, `${path}.properties.${key}`);
    }
    if (node.items && typeof node.items === 'object') walk(node.items as Schema, `${path}.items`);
    if (Array.isArray(node.anyOf)) (node.anyOf as Schema[]).forEach((s, i) => {
        walk(s, `${path}.anyOf[${i}]`);
      });
  };
  walk(parameters, name);
  return problems;
}

type ChatTool = { type: string; function: { name: string; parameters?: Record<string, unknown>; strict?: boolean } };

/** OpenAI chat completions: tool names, strict tools' schemas, a strict json_schema response_format. */
export function openAiChatProblems(request: { tools?: unknown; response_format?: unknown }): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  ((request.tools ?? []) as ChatTool[]).forEach((tool, i) => {
    const { name, parameters, strict } = tool.function;
    // Tool names are unique in a request (Anthropic: "Tool names must be unique"; OpenAI refuses
    // a duplicate function name too): two toolkits giving the same tool fail here (#52.13).
    if (seen.has(name)) problems.push(`Invalid 'tools[${i}].function.name': duplicate function name '${name}'; tool names must be unique.`);
    seen.add(name);
    if (!TOOL_NAME.test(name)) {
      problems.push(
        `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      );
    }
    if (strict) {
      for (const problem of openAiStrictProblems(parameters ?? {}, name)) {
        problems.push(`Invalid schema for function '${name}': ${problem}`);
      }
    }
  });
  const format = request.response_format as { type?: string; json_schema?: { strict?: boolean; schema?: Record<string, unknown> } };
  if (format?.type === 'json_schema' && format.json_schema?.strict) {
    for (const problem of openAiStrictProblems(format.json_schema.schema ?? {}, 'response_format')) {
      problems.push(`Invalid schema for response_format: ${problem}`);
    }
  }
  return problems;
}
