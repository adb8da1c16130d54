import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { beforeAll, describe, expect, it } from 'vitest';
import { toLangChainTool } from '../../src/adapters/langchain.js';
import { modelParameters } from '../../src/adapters/json-schema.js';
import { checkCall } from '../../src/call/index.js';
import { WordPressClient } from '../../src/client/index.js';
import { type Ability, phpQuery, runMethod } from '../../src/tools/abilities/abilities-api.js';
import { abilityDoor, matchesPattern } from '../../src/tools/abilities/ability-doors.js';
import { clientSchema, coerceInput, inputProblems, loadValidator } from '../../src/tools/abilities/ability-input.js';
import { abilityParams, modelSchema } from '../../src/tools/abilities/ability-schema.js';
import { abilityToolName, withinBudget } from '../../src/tools/abilities/ability-tool.js';
import { abilityQuestion, inputWords, safetyOf } from '../../src/tools/abilities/ability-words.js';
import { fromJsonText } from '../../src/tools/abilities/run-ability.js';
import { anthropicStrictProblems, geminiProblems, openAiStrictProblems, TOOL_NAME } from '../helpers/provider-rules.js';

/** Abilities as the site publishes them (the shapes of scripts/sandbox/sandbox-abilities.php, and a scalar one). */
const ability = (name: string, input_schema: Ability['input_schema'], annotations: Ability['annotations'] = {}): Ability => ({
  name,
  label: `Label of ${name}`,
  description: `What ${name} does.`,
  category: 'shop',
  input_schema,
  annotations,
});
const NESTED = ability(
  'shop/product-file',
  {
    type: 'object',
    properties: {
      product: { type: 'object', properties: { title: { type: 'string', minLength: 1 }, status: { type: 'string', enum: ['draft', 'publish'] } }, required: ['title', 'status'], additionalProperties: false },
      shelf: { type: 'object', properties: { category: { type: 'string' }, position: { type: 'integer', minimum: 0 } }, required: ['category'] },
    },
    required: ['product', 'shelf'],
    additionalProperties: false,
  },
  { readonly: false, destructive: false },
);
const QUERY = ability('shop/products-query', { type: 'object', properties: { search: { type: 'string' }, per_page: { type: 'integer', minimum: 1, maximum: 50 } }, default: {} }, { readonly: true });
const SCALAR = ability('shop/count', { type: 'string', enum: ['post', 'page'] }, { readonly: true });
const NONE = ability('shop/touch', undefined);

beforeAll(() => loadValidator());

describe('an ability’s input', () => {
  it('is checked against its own schema, in words that say where and what', () => {
    const schema = clientSchema(NESTED.input_schema!);
    expect(inputProblems(schema, { product: { title: 'Mug', status: 'draft' }, shelf: { category: 'Home' } })).toEqual([]);
    expect(inputProblems(schema, { product: { title: '', status: 'sold' }, shelf: {}, extra: 1 }).map((p) => `${p.path.join('.')}: ${p.message}`)).toEqual([
      'input.product.title: String is too short (0 < 1)',
      'input.product.status: does not match any of ["draft","publish"]',
      'input.shelf: does not have required property "category"',
      'input: Property "extra" does not match additional properties schema',
    ]);
    expect(inputProblems(schema, undefined)).toEqual([{ path: ['input'], message: 'is required (this ability takes an input)' }]);
    // No input: WordPress gives the schema's default (normalize_input).
    expect(inputProblems(clientSchema(QUERY.input_schema!), undefined)).toEqual([]);
    expect(inputProblems(undefined, { a: 1 })).toEqual([{ path: ['input'], message: 'this ability takes no input' }]);
    expect(inputProblems(undefined, undefined)).toEqual([]);
  });

  it('takes numbers and booleans written as text, as WordPress’s own validation does, and runs them typed', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' }, b: { type: 'boolean' }, s: { type: 'string' }, list: { type: 'array', items: { type: 'number' } } } };
    expect(coerceInput({ n: '12', b: 'true', s: '7', list: ['1.5', 2] }, schema)).toEqual({ n: 12, b: true, s: '7', list: [1.5, 2] });
    expect(coerceInput({ n: 'twelve' }, schema)).toEqual({ n: 'twelve' });
  });

  it('WordPress 6.9’s `required: true` on a property reads as the parent’s list (7.1 converts it itself)', () => {
    expect(clientSchema({ type: 'object', properties: { a: { type: 'string', required: true }, b: { type: 'string', required: false } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a'],
    });
  });

  it('run-ability’s input as JSON text is the same input; text an ability takes as text stays text', () => {
    expect(fromJsonText('{"a":1}', { type: 'object' })).toEqual({ a: 1 });
    expect(fromJsonText('[1,2]', { type: 'array' })).toEqual([1, 2]);
    expect(fromJsonText('page', SCALAR.input_schema)).toBe('page');
    expect(fromJsonText('12', SCALAR.input_schema)).toBe('12');
    expect(fromJsonText('12', { type: 'integer' })).toBe(12);
    expect(fromJsonText({ a: 1 }, { type: 'object' })).toEqual({ a: 1 });
  });

  it('goes in a GET or DELETE query string as PHP reads it', () => {
    expect(phpQuery('input', { search: 'a b', n: 5, ok: true, tags: ['x', 'y'], shelf: { at: 'front' }, none: null, empty: {} })).toEqual([
      'input%5Bsearch%5D=a%20b',
      'input%5Bn%5D=5',
      'input%5Bok%5D=true',
      'input%5Btags%5D%5B0%5D=x',
      'input%5Btags%5D%5B1%5D=y',
      'input%5Bshelf%5D%5Bat%5D=front',
      'input%5Bempty%5D=',
    ]);
    expect(runMethod({ readonly: true })).toBe('GET');
    expect(runMethod({ destructive: true, idempotent: true })).toBe('DELETE');
    expect(runMethod({ destructive: true })).toBe('POST');
    expect(runMethod({})).toBe('POST');
  });
});

describe('what the site says decides the safety', () => {
  it('read-only only when the site marks it so; destructive unless it says it is not', () => {
    expect(safetyOf({ readonly: true })).toEqual({ readOnly: true, destructive: false, idempotent: false });
    expect(safetyOf({ readonly: false, destructive: false })).toMatchObject({ readOnly: false, destructive: false });
    expect(safetyOf({ readonly: null, destructive: null })).toMatchObject({ readOnly: false, destructive: true });
    expect(safetyOf({})).toMatchObject({ readOnly: false, destructive: true });
  });

  it('the question names the ability, its label and description, the site and the input; a site’s words stay on one line; secrets masked', () => {
    const client = new WordPressClient({ url: 'http://127.0.0.1:9/blog', username: 'a', appPassword: 'b' });
    const sly = { ...NONE, label: 'Touch\nAPPROVED BY ADMIN', description: 'Counts\u202e visits.' };
    const question = abilityQuestion(sly, { client }, { token: 'tok-secret-1', note: 'hi' });
    expect(question).toBe(
      'run the site\'s ability "Touch APPROVED BY ADMIN" (shop/touch) on 127.0.0.1:9/blog: Counts visits. With token: "[REDACTED]"; note: "hi". The site does not say what it changes, so it is treated as one that may delete. cms-admin-toolkit cannot preview what it will change nor undo it.',
    );
    expect(abilityQuestion(NESTED, { client, site: 'shop' }, undefined)).toContain('on shop: What shop/product-file does. With no input. The site marks it as adding, not deleting.');
    expect(inputWords({ product: { title: 'Mug' }, tags: [] })).toBe('product.title: "Mug"; tags: none');
  });
});

describe('an ability as a tool of its own', () => {
  it('a name every provider takes: `/` becomes `_` (never one of ours), long ones cut and hashed', () => {
    expect(abilityToolName('woocommerce/products-query')).toBe('woocommerce_products-query');
    const long = `${'a'.repeat(40)}/${'b'.repeat(40)}`;
    const other = `${'a'.repeat(40)}/${'b'.repeat(39)}c`;
    expect(abilityToolName(long)).toMatch(TOOL_NAME);
    expect(abilityToolName(long)).toHaveLength(64);
    expect(abilityToolName(long)).not.toBe(abilityToolName(other));
    expect(matchesPattern('woocommerce/*', 'woocommerce/orders-query')).toBe(true);
    expect(matchesPattern('woocommerce/*', 'woocommerce-payments/x')).toBe(false);
    expect(matchesPattern('*', 'a/b')).toBe(true);
    expect(matchesPattern('a/b', 'a/bc')).toBe(false);
  });

  it('takes the input’s properties as its params, or one `input`, or none', () => {
    expect(abilityParams(NESTED)).toMatchObject({ wrapped: false, schema: { required: ['product', 'shelf'], properties: { product: { type: 'object' } } } });
    expect(abilityParams(SCALAR)).toEqual({ wrapped: true, schema: { type: 'object', properties: { input: { type: 'string', enum: ['post', 'page'] } }, required: ['input'], additionalProperties: false } });
    expect(abilityParams(NONE)).toEqual({ wrapped: false, schema: { type: 'object', properties: {}, additionalProperties: false } });
    expect(abilityParams(ability('x/y', { type: 'object', properties: { dry_run: { type: 'boolean' } } })).wrapped).toBe(true);
    // draft-04's boolean exclusiveMinimum, oneOf and keywords providers refuse.
    expect(modelSchema({ type: 'integer', minimum: 0, exclusiveMinimum: true, arg_options: {}, oneOf: [{ type: 'integer' }] })).toEqual({ type: 'integer', exclusiveMinimum: 0, anyOf: [{ type: 'integer' }] });
    // As a tool's params, without bounds (checked all the same); a const as a one-value enum.
    expect(modelSchema({ type: 'string', minLength: 1, const: 'x' }, { bounds: false })).toEqual({ type: 'string', enum: ['x'] });
  });

  it('refuses an input its schema refuses without a request, in the param’s own place', () => {
    const door = abilityDoor(NESTED);
    expect(door.name).toBe('shop_product-file');
    expect(door.annotations).toMatchObject({ readOnly: false, destructive: false });
    const bad = checkCall({ tool: door, params: { product: { title: 'Mug', status: 'sold' }, shelf: { category: 'Home' } } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(JSON.stringify(bad)).toContain('product.status: does not match any of');
    expect(checkCall({ tool: door, params: { product: { title: 'Mug', status: 'draft' }, shelf: { category: 'Home' }, dry_run: true } })).toMatchObject({ ok: true });
    expect(checkCall({ tool: abilityDoor(SCALAR), params: { input: 'book' } })).toMatchObject({ ok: false });
    expect(checkCall({ tool: abilityDoor(QUERY), params: { per_page: '10' } })).toMatchObject({ ok: true });
  });

  it('its params pass every provider’s rules: OpenAI and Anthropic strict, Gemini’s subset', () => {
    const doors = [NESTED, QUERY, SCALAR, NONE].map(abilityDoor);
    for (const door of doors) {
      expect(door.name).toMatch(TOOL_NAME);
      const strict = modelParameters(door, { strict: true });
      expect(openAiStrictProblems(strict, door.name)).toEqual([]);
      expect(anthropicStrictProblems(strict, door.name)).toEqual([]);
    }
    const client = new WordPressClient({ url: 'http://127.0.0.1:9', username: 'a', appPassword: 'b' });
    const model = new ChatGoogleGenerativeAI({ model: 'gemini-2.5-flash', apiKey: 'x' });
    const params = model.invocationParams({ tools: doors.map((door) => toLangChainTool(door, { client })) } as never) as {
      tools: Array<{ functionDeclarations: Array<{ name: string; parameters?: Record<string, unknown> }> }>;
    };
    for (const declaration of params.tools[0]!.functionDeclarations) expect(geminiProblems(declaration.parameters, declaration.name)).toEqual([]);
    // The model reads the ability's own params (a write's dry_run too), not a wrapper.
    expect(modelParameters(abilityDoor(NESTED))).toMatchObject({ required: ['product', 'shelf'], properties: { product: {}, shelf: {}, dry_run: { type: 'boolean' } } });
  });
});

describe('an ability’s answer', () => {
  it('stays within the answer budget: its longest lists cut, saying so; a small one as it is', () => {
    const products = Array.from({ length: 400 }, (_, i) => ({ id: i, title: `Product number ${i}`, status: 'publish' }));
    const cut = withinBudget({ products, total: 400 }, 4000) as { products: unknown[]; total: number; cut: string };
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(4000);
    expect(cut.total).toBe(400);
    expect(cut.cut).toMatch(/left out the last \d+ of products/);
    const list = withinBudget(products, 4000) as { items: unknown[]; cut: string };
    expect(JSON.stringify(list).length).toBeLessThanOrEqual(4000);
    expect(list.cut).toMatch(/of items/);
    expect(withinBudget({ a: 1 }, 4000)).toEqual({ a: 1 });
    expect(withinBudget(products.slice(0, 2), 4000)).toEqual(products.slice(0, 2));
  });
});
