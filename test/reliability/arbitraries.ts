import fc from 'fast-check';
import type { z } from 'zod';
import { selectTools, tools } from '../../src/call/index.js';
import { withPlaceholderIds } from '../../src/call/names.js';
import type { AnyToolDefinition } from '../../src/tools/define-tool.js';
import { normalizeParams, parseParams } from '../../src/tools/params.js';

/**
 * Generators of envelopes that must be refused before any request: garbage, wrong names,
 * wrong shapes, and real tool names whose params break the schema in at least one way.
 */

// A single site's tools: the network tools are offered only on a network (test/wordpress/network/).
export const TOOL_NAMES = selectTools(tools, {}).map((t) => t.name);

/** Keys that pollute prototypes when code assigns them naively. */
export const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

const EMOJI = [
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🇯🇵',
  '💩',
  'é',
  '\u0301',
  'ß',
  'İ',
  'ﷺ',
  '\u200b',
  '\u202e',
  '\ufeff',
  '\u0000',
  '\ud800',
  '\n',
  '"',
  '\\',
  '<',
  '&amp;',
];

/** Strings that stress parsers and printers: unicode, controls, lone surrogates, up to 200,000 chars. */
export const weirdString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\t\n',
    '0',
    '-1',
    'null',
    'undefined',
    'NaN',
    '[]',
    '{}',
    "'; DROP TABLE wp_terms; --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    'a'.repeat(201),
  ),
  fc.array(fc.constantFrom(...EMOJI), { maxLength: 30 }).map((parts) => parts.join('')),
  fc.tuple(fc.constantFrom(...EMOJI, 'x'), fc.integer({ min: 1_000, max: 200_000 })).map(([c, n]) => c.repeat(n)),
);

export const weirdNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    -1,
    1.5,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
);

const keyArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...POLLUTION_KEYS, 'tool', 'params', 'id', 'name', 'password'),
);

/** Nested garbage of every JS type, with prototype-pollution keys among the keys. */
export const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    maxDepth: 4,
    maxKeys: 6,
    key: keyArb,
    values: [weirdString, weirdNumber, fc.boolean(), fc.constant(null), fc.constant(undefined)],
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
    withSparseArray: true,
  }),
  weirdString,
  weirdNumber,
  fc.array(fc.constantFrom(...TOOL_NAMES)),
  pollutionObject(),
);

/** An object with own `__proto__`/`constructor`/`prototype` keys, as JSON.parse makes them. */
export function pollutionObject(): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .array(
      fc.tuple(
        fc.constantFrom(...POLLUTION_KEYS),
        fc.oneof(fc.constant({ polluted: true, isAdmin: true }), weirdString),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) defineOwn(object, key, value);
      return object;
    });
}

/** Sets an own enumerable property, even `__proto__` (plain assignment would change the prototype). */
export function defineOwn(object: object, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Names that are not tools: near misses of real names, lookalikes, pollution keys, huge ones. */
export const wrongToolName: fc.Arbitrary<unknown> = fc
  .oneof(
    fc
      .tuple(
        fc.constantFrom(...TOOL_NAMES),
        fc.nat(),
        fc.constantFrom('drop', 'swap', 'insert', 'upper', 'underscore', 'space', 'cyrillic', 'suffix'),
      )
      .map(([name, at, how]) => nearName(name, at, how)),
    fc.constantFrom(...POLLUTION_KEYS, 'tools', 'index', 'runTool', 'invoke', ''),
    weirdString,
    fc
      .tuple(fc.constantFrom('x', 'create-category', '😀'), fc.integer({ min: 10_000, max: 1_000_000 }))
      .map(([s, n]) => s.repeat(Math.ceil(n / s.length))),
    weirdNumber,
    fc.constantFrom(null, true, false, [], {}, ['create-category'], { name: 'create-category' }),
  )
  .filter((name) => !(typeof name === 'string' && TOOL_NAMES.includes(name)));

function nearName(name: string, at: number, how: string): string {
  const i = at % name.length;
  switch (how) {
    case 'drop':
      return name.slice(0, i) + name.slice(i + 1);
    case 'swap':
      return name.slice(0, i) + (name[i + 1] ?? '') + name[i] + name.slice(i + 2);
    case 'insert':
      return `${name.slice(0, i)}x${name.slice(i)}`;
    case 'upper':
      return name.toUpperCase();
    case 'underscore':
      return name.replaceAll('-', '_');
    case 'space':
      return ` ${name}\n`;
    case 'cyrillic':
      return name.replace('e', '\u0435'); // Cyrillic е looks like Latin e
    default:
      return `${name}s`;
  }
}

type Shape = Record<string, z.ZodType>;

/** A plausible value of a field's own type (valid or not): the noise around the violation. */
function fieldValue(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; entries?: Record<string, string> } })
    .def;
  if (def.type === 'optional' && def.innerType) return fieldValue(def.innerType);
  if (def.type === 'string') return weirdString;
  if (def.type === 'number') return weirdNumber;
  if (def.type === 'boolean') return fc.boolean();
  if (def.type === 'array') return fc.array(weirdNumber, { maxLength: 30 });
  if (def.type === 'enum' && def.entries) return fc.constantFrom(...Object.values(def.entries));
  return garbage;
}

/**
 * Whether the tool accepts `value` for a param, after the step every surface runs first
 * (params.ts: null for an optional param = not given, "5" for a number = 5, …).
 */
function accepts(schema: z.ZodType, value: unknown): boolean {
  const normalized = normalizeParams({ shape: { v: schema } } as never, { v: value }) as { v?: unknown };
  return schema.safeParse('v' in normalized ? normalized.v : undefined).success;
}

/** Whether some value is refused by the field: not so for `z.unknown()` / `z.any()` (optional or not). */
function refusesSomething(schema: z.ZodType): boolean {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
  if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) return refusesSomething(def.innerType);
  return def.type !== 'unknown' && def.type !== 'any';
}

/** A value the field refuses: garbage, or a plausible value of the wrong type. */
function wrongValue(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fc
    .oneof(
      garbage,
      weirdString,
      weirdNumber,
      fc.constantFrom(null, true, '5', [1], { id: 1 }, [], {}),
      fc.array(garbage, { maxLength: 3 }),
    )
    .filter((value) => !accepts(schema, value));
}

/**
 * Params for `tool` with at least one violation the schema must catch: an unknown key
 * (pollution keys included), a value of the wrong type, or a missing required field. A string
 * where an id goes is a name (a login, a slug: #52.1), valid if the site has it, so it is no violation.
 */
export function invalidParams(tool: AnyToolDefinition): fc.Arbitrary<Record<string, unknown>> {
  const shape = tool.schema.shape as Shape;
  const keys = Object.keys(shape);
  const required = keys.filter((k) => !shape[k]?.safeParse(undefined).success);
  const base = fc.record(Object.fromEntries(keys.map((k) => [k, fieldValue(shape[k] as z.ZodType)])), {
    requiredKeys: [],
  });
  const unknownKey = fc
    .oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ minLength: 1, maxLength: 20 }))
    .filter((k) => !keys.includes(k));
  const violations: Array<fc.Arbitrary<(params: Record<string, unknown>) => void>> = [
    fc.tuple(unknownKey, garbage).map(
      ([k, v]) =>
        (p) =>
          defineOwn(p, k, v),
    ),
  ];
  // A param that takes anything (run-ability's `input`, checked later against the ability's own schema) has no wrong value.
  const refusing = keys.filter((k) => refusesSomething(shape[k] as z.ZodType));
  if (refusing.length) {
    violations.push(
      fc
        .constantFrom(...refusing)
        .chain((k) => wrongValue(shape[k] as z.ZodType).map((v) => (p: Record<string, unknown>) => defineOwn(p, k, v))),
    );
  }
  if (required.length)
    violations.push(fc.constantFrom(...required).map((k) => (p: Record<string, unknown>) => void delete p[k]));
  return fc.tuple(base, fc.array(fc.oneof(...violations), { minLength: 1, maxLength: 3 })).map(([params, breaks]) => {
    const copy: Record<string, unknown> = { ...params };
    for (const apply of breaks) apply(copy);
    // A later "missing" may have undone an earlier break, or the break was a name; make sure one stays.
    if (parseParams(tool, withPlaceholderIds(tool, copy)).success) {
      defineOwn(copy, '__proto__', { polluted: true });
    }
    return copy;
  });
}
