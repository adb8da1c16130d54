import type { z } from 'zod';
import type { AnyToolDefinition } from './define-tool.js';

/**
 * The one step every surface (LangChain tools, the envelope, MCP, the tool shell, approvals)
 * runs on a call's raw params before the tool's zod schema sees them. What models send that
 * has an obvious meaning (docs/params.md):
 * - `null` for an optional param means "not given": strict-mode models must send every
 *   property and send null for the ones they leave out. null for a required param stays and is
 *   refused ("is required; null means not given").
 * - `""` for an optional enum means "not given" (weaker models fill every field). For strings
 *   "" is kept: it can mean "clear" (update-tag's description) and the schema decides.
 * - A number written as a string ("12", "-3", "1.5") is that number, also inside a list of
 *   numbers; "true"/"false" for a boolean is that boolean. Anything else is left for the
 *   schema to refuse with invalid_params.
 * - A list of strings for a string param marked `listOfNames` (a fleet's `site`: "a,b") is
 *   that list comma-joined: `["a","b"]` and `"a,b"` are the same call (#52.12).
 */
export function normalizeParams(schema: z.ZodObject, raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const shape = schema.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    // Own keys only ("constructor" is not a param), and kept as own properties: a plain
    // assignment of "__proto__" would set the prototype and hide the key from the schema.
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    // Unknown keys stay: the strict schema refuses them by name.
    if (!field) {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    const optional = isOptional(field);
    const base = baseOf(field);
    if (value === null && optional) continue;
    if (value === '' && optional && kind(base) === 'enum') continue;
    out[key] = coerce(base, value);
  }
  return out;
}

/** Normalizes, then validates with the tool's schema. */
export function parseParams(tool: AnyToolDefinition, raw: unknown) {
  return tool.schema.safeParse(normalizeParams(tool.schema, raw ?? {}));
}

/** Whether the schema's param takes a list (under optional/default wrappers): the CLI reads `a,b,c` for it. */
export function isListParam(schema: z.ZodObject, key: string): boolean {
  const shape = schema.shape as Record<string, z.ZodType>;
  const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
  return Boolean(field && kind(baseOf(field)) === 'array');
}

/** Whether the tool's param may be left out (optional or with a default). */
export function isOptional(field: z.ZodType): boolean {
  return field.safeParse(undefined).success;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType };
const kind = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def.type;
const def = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The value type under optional/default/nullable/readonly wrappers and a pipe's input. */
function baseOf(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const d = def(current);
    const next = d.innerType ?? (d.type === 'pipe' ? d.in : undefined);
    if (!next) return current;
    current = next;
  }
}

const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

const LISTS = new WeakSet<z.ZodType>();
/** Marks a string param that names one or several things comma-separated: a JSON list of strings is taken too. */
export function listOfNames<T extends z.ZodType>(schema: T): T {
  LISTS.add(schema);
  return schema;
}

function coerce(base: z.ZodType, value: unknown): unknown {
  const type = kind(base);
  if (type === 'number' && typeof value === 'string' && NUMBER.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (LISTS.has(base) && Array.isArray(value) && value.length && value.every((v) => typeof v === 'string')) return value.join(',');
  const element = def(base).element;
  if (type === 'array' && element && Array.isArray(value)) return value.map((item) => coerce(baseOf(element), item));
  return value;
}
