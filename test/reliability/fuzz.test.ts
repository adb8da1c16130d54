import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapLimit } from '../../src/client/index.js';
import { invoke, parseEnvelope, USAGE_ERROR_CODES } from '../../src/envelope.js';
import { findTool, type ToolFilter, type ToolOutcome } from '../../src/tools/index.js';
import { testContext, wp } from '../helpers/site.js';
import { defineOwn, garbage, invalidParams, pollutionObject, TOOL_NAMES, weirdNumber, weirdString, wrongToolName } from './arbitraries.js';
import { prototypeFingerprint, siteState } from './site-state.js';

/**
 * Property-based fuzzing of the envelope, in process, against the real sandbox: every
 * envelope ends in a result or a clear error, none throws or hangs, invalid ones are refused
 * before any request, and nothing on the site changes.
 */

const seed = Number(process.env.FUZZ_SEED) || Date.now() % 2 ** 31;
const tally = { envelopes: 0, crashes: 0, hangs: 0, slow: 0, reachedSite: 0 };
/** Error codes of the calls that reached WordPress, to see what they exercised. */
const siteCodes: Record<string, number> = {};
let before: Record<string, unknown>;
let prototypes: string;

beforeAll(async () => {
  prototypes = prototypeFingerprint();
  before = await siteState();
});

afterAll(async () => {
  const after = await siteState();
  const writes = JSON.stringify(after) === JSON.stringify(before) ? 0 : 1;
  console.log(
    `fuzz: ${tally.envelopes} envelopes (${tally.reachedSite} reached WordPress), ${tally.crashes} crashes, ${tally.hangs} hangs, ${tally.slow} slow, ${writes} writes (seed ${seed})`,
  );
  console.log(`fuzz: outcomes of calls that reached WordPress: ${JSON.stringify(siteCodes)}`);
  expect(after).toEqual(before);
  expect(prototypeFingerprint()).toBe(prototypes);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

/** Runs one envelope with a time bound; a throw or a hang fails the property. */
async function attempt(envelope: unknown, filter: ToolFilter = {}, limitMs = 2_000): Promise<ToolOutcome> {
  tally.envelopes++;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), limitMs);
  });
  try {
    const outcome = await Promise.race([invoke(envelope, testContext(), filter), timeout]);
    if (outcome === 'hang') {
      tally.hangs++;
      throw new Error(`no answer within ${limitMs} ms`);
    }
    // A synchronous stall blocks the timer too, so measure it.
    if (Date.now() - started > limitMs) {
      tally.slow++;
      throw new Error(`took ${Date.now() - started} ms`);
    }
    return outcome;
  } catch (err) {
    if (!(err instanceof Error && /no answer|took/.test(err.message))) tally.crashes++;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

function expectClearError(outcome: ToolOutcome): { code: string; message: string } {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) throw new Error('unreachable');
  expect(typeof outcome.error.code).toBe('string');
  expect(outcome.error.code).toMatch(/^[a-z][a-z0-9_]*$/i);
  expect(typeof outcome.error.message).toBe('string');
  expect(outcome.error.message.trim()).not.toBe('');
  return outcome.error;
}

/** Refused as a usage error, and no request reached WordPress. */
async function expectRefusedOffline(envelope: unknown, filter: ToolFilter = {}): Promise<void> {
  const { stats } = testContext().client;
  const requests = stats.requests;
  const error = expectClearError(await attempt(envelope, filter));
  expect(USAGE_ERROR_CODES.has(error.code), `usage error expected, got ${error.code}`).toBe(true);
  expect(stats.requests).toBe(requests);
}

/** fast-check's report, cut short: a counterexample may hold a megabyte of text. */
function reporter<T>(details: fc.RunDetails<T>): void {
  if (details.failed) throw new Error(fc.defaultReportMessage(details)?.slice(0, 3_000));
}

const settings = <T>(numRuns: number): fc.Parameters<T> => ({ numRuns, seed, endOnFailure: true, reporter: reporter<T> });

const run = (arb: fc.Arbitrary<unknown>, numRuns: number, filter: ToolFilter = {}) =>
  fc.assert(fc.asyncProperty(arb, (envelope) => expectRefusedOffline(envelope, filter)), settings(numRuns));

const realName = fc.constantFrom(...TOOL_NAMES);

describe('invalid envelopes are refused before any request', () => {
  it('garbage as the envelope', () => run(garbage, 1_500));

  it('tool names that are not tools', () =>
    run(fc.record({ tool: wrongToolName, params: fc.option(garbage, { nil: undefined }) }, { requiredKeys: ['tool'] }), 2_000));

  it('params that are not an object', () =>
    run(fc.record({ tool: realName, params: fc.oneof(fc.array(garbage, { maxLength: 3 }), weirdString, weirdNumber, fc.constantFrom(null, true, false)) }), 600));

  it('envelope members besides tool and params', () =>
    run(fc.tuple(realName, pollutionObject(), fc.option(fc.dictionary(fc.string({ minLength: 1 }), garbage, { minKeys: 1, maxKeys: 2 }))).map(([tool, extra, more]) => {
      const envelope = { tool, params: {} };
      for (const [k, v] of Object.entries({ ...more })) if (k !== 'tool' && k !== 'params') defineOwn(envelope, k, v);
      for (const k of Object.keys(extra)) defineOwn(envelope, k, extra[k]);
      return envelope;
    }), 500));

  it('real tools with params that break the schema (wrong types, missing and extra keys)', () =>
    run(realName.chain((name) => invalidParams(findTool(name) as never).map((params) => ({ tool: name, params }))), 5_000));

  it('JSON text that is not JSON, or not an envelope', async () => {
    const valid = JSON.stringify({ tool: 'create-category', params: { name: 'Fuzz should never exist' } });
    const text = fc.oneof(
      fc.nat({ max: valid.length - 1 }).map((n) => valid.slice(0, n)),
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom("{'tool':'get-cms-tags'}", '{"tool":"create-tag","params":{"name":"x",}}', '{"tool":NaN}', '\ufeff{"tool":"x"}', '{"tool":"create-tag"/*c*/}', 'null', '[]', '""', '1e999'),
    );
    await fc.assert(
      fc.asyncProperty(text, async (input) => {
        const parsed = parseEnvelope(input);
        if (!parsed.ok) {
          tally.envelopes++;
          expect(expectClearError(parsed.outcome).code).toBe('invalid_json');
          return;
        }
        await expectRefusedOffline(parsed.value);
      }),
      settings(1_000),
    );
  });

  it('valid writes in a read-only session', () => {
    const writes = TOOL_NAMES.filter((name) => !findTool(name)?.annotations.readOnly);
    const envelope = fc.tuple(fc.constantFrom(...writes), fc.string({ minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 300 })).map(([tool, text, id]) => ({
      tool,
      params: validWrite(tool, text.trim() || 'x', id),
    }));
    return run(envelope, 400, { readOnly: true });
  });
});

/** Schema-valid params for each write tool (the read-only filter must refuse them all). */
function validWrite(tool: string, text: string, id: number): Record<string, unknown> {
  const password = `Fz-${text}-${id}-correct-horse-battery`;
  const byTool: Record<string, Record<string, unknown>> = {
    'create-category': { name: text },
    'create-tag': { name: text },
    'update-category': { id, name: text },
    'update-tag': { id, name: text },
    'delete-category': { id, force: true },
    'delete-tag': { id, force: true },
    'merge-categories': { source_ids: [id + 1], target_id: id, delete_sources: true },
    'assign-categories-to-posts': { post_ids: [id], category_ids: [id] },
    'assign-tags-to-posts': { post_ids: [id], tag_ids: [id] },
    'create-user': { username: `fz${id}`, email: `fz${id}@example.org`, password },
    'update-user': { id, name: text },
    'disable-user': { id },
    'enable-user': { id },
    'reset-user-password': { id },
    'set-user-role': { id, role: 'subscriber' },
  };
  const params = byTool[tool];
  if (!params || !(findTool(tool)?.schema.safeParse(params).success ?? false)) throw new Error(`no valid params for ${tool}`);
  return params;
}

describe('schema-valid calls with ids that do not exist and odd values', () => {
  it('reach WordPress and come back as clear errors (writes) or results (reads); nothing written', async () => {
    const site = await existing();
    const missingId = fc.oneof(fc.constantFrom(2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER), fc.integer({ min: 10_000_000, max: 2_147_483_647 }));
    const oddName = fc.oneof(
      fc.constantFrom('😀'.repeat(50), '👩‍👩‍👧‍👦 team', 'x'.repeat(10_000), '\u202eevil', 'İstanbul ß', '<b>bold</b> & co', "O'Brien; DROP TABLE wp_users"),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    ).filter((s) => s.trim() !== '');
    // role and search take at most 1,000 characters, email 100 (longer is invalid_params, tried above).
    const shortOddName = oddName.filter((s) => s.length <= 900);
    const weak = fc.constantFrom('short', 'aaaaaaaaaaaaaaaa', ' padded-password-here ', 'back\\slash-password');
    const pick = (ids: number[]) => fc.constantFrom(...ids);
    const writes: Array<fc.Arbitrary<[string, Record<string, unknown>]>> = [
      fc.tuple(missingId, oddName, fc.option(pick(site.categories), { nil: undefined })).map(([id, name, parent]) => ['update-category', { id, name, parent }]),
      fc.tuple(missingId, oddName, oddName).map(([id, name, description]) => ['update-tag', { id, name, description }]),
      fc.tuple(fc.constantFrom('delete-category', 'delete-tag'), missingId, fc.boolean()).map(([tool, id, force]) => [tool, { id, force }]),
      fc.tuple(pick(site.categories), missingId, fc.boolean()).map(([source, target, del]) => ['merge-categories', { source_ids: [source], target_id: target, delete_sources: del }]),
      fc.tuple(pick(site.categories), missingId, pick(site.categories)).filter(([a, , c]) => a !== c).map(([source, missing, target]) => ['merge-categories', { source_ids: [source, missing], target_id: target, delete_sources: true }]),
      fc.tuple(fc.subarray(site.posts, { minLength: 1, maxLength: 30 }), pick(site.categories), missingId).map(([posts, cat, missing]) => ['assign-categories-to-posts', { post_ids: posts, category_ids: [cat, missing] }]),
      fc.tuple(fc.subarray(site.posts, { minLength: 1, maxLength: 30 }), missingId).map(([posts, missing]) => ['assign-tags-to-posts', { post_ids: posts, tag_ids: [missing] }]),
      fc.tuple(oddName, missingId).map(([name, parent]) => ['create-category', { name, parent }]),
      fc.tuple(pick(site.categories), missingId).map(([id, parent]) => ['update-category', { id, parent }]),
      pick(site.categories).map((id) => ['update-category', { id, parent: id }]),
      fc.constant(['delete-category', { id: site.defaultCategory, force: true }]),
      pick(site.usedCategories).map((id) => ['delete-category', { id }]),
      fc.tuple(fc.constantFrom('update-user', 'disable-user', 'enable-user', 'reset-user-password'), missingId, oddName).map(([tool, id, name]) => [tool, tool === 'update-user' ? { id, name } : { id }]),
      fc.tuple(missingId, fc.constantFrom('editor', 'subscriber')).map(([id, role]) => ['set-user-role', { id, role }]),
      fc.tuple(pick(site.users), shortOddName).map(([id, role]) => ['set-user-role', { id, role: `no-such-role-${role}` }]),
      fc.tuple(pick(site.users), weak).map(([id, password]) => ['update-user', { id, password }]),
      fc.tuple(pick(site.users), oddName).map(([id, junk]) => ['update-user', { id, email: `not-an-email ${junk}` }]),
      fc.tuple(fc.nat(), weak).map(([n, password]) => ['create-user', { username: `fuzz_${n}`, email: `fuzz_${n}@example.org`, password }]),
      fc.tuple(fc.nat(), oddName.filter((s) => s.length <= 80)).map(([n, junk]) => ['create-user', { username: `fuzz_${n}`, email: `no-at-sign-${junk}`, password: `Fz-${n}-correct-horse-battery` }]),
      fc.constant(['disable-user', { id: site.me }]),
      fc.constant(['set-user-role', { id: site.me, role: 'subscriber' }]),
    ];
    const reads: Array<fc.Arbitrary<[string, Record<string, unknown>]>> = [
      fc.tuple(shortOddName, fc.option(shortOddName, { nil: undefined })).map(([search, role]) => ['list-users', { search, role }]),
      oddName.map((date) => ['list-users', { registered_after: date }]),
      fc.constantFrom<[string, Record<string, unknown>]>(['get-cms-categories', {}], ['get-cms-tags', {}], ['list-taxonomies', {}], ['list-user-roles', {}], ['merge-categories', { source_ids: [site.categories[0] as number], target_id: 2_147_483_647, dry_run: true }]),
    ];
    const calls = fc.sample(fc.oneof({ arbitrary: fc.oneof(...writes), weight: 5 }, { arbitrary: fc.oneof(...reads), weight: 1 }), { numRuns: 300, seed });
    const failures: string[] = [];
    await mapLimit(calls, 3, async ([tool, params]) => {
      const envelope = { tool, params: JSON.parse(JSON.stringify(params)) };
      tally.reachedSite++;
      try {
        const outcome = await attempt(envelope, {}, 30_000);
        const code = outcome.ok ? 'ok' : outcome.error.code;
        siteCodes[code] = (siteCodes[code] ?? 0) + 1;
        if (findTool(tool)?.annotations.readOnly && outcome.ok) return;
        const error = expectClearError(outcome);
        if (USAGE_ERROR_CODES.has(error.code)) failures.push(`${tool}: refused as ${error.code} although schema-valid: ${error.message}`);
      } catch (err) {
        failures.push(`${tool} ${JSON.stringify(params).slice(0, 200)}: ${(err as Error).message}`);
      }
    });
    expect(failures).toEqual([]);
  });
});

/** Ids that exist on the seeded site, for calls that mix real and missing ids. */
async function existing() {
  const client = wp();
  const me = (await client.connect()).id;
  const { default_category: defaultCategory } = await client.get<{ default_category: number }>('/wp/v2/settings', { _fields: 'default_category' });
  const categories = await client.all<{ id: number; count: number }>('/wp/v2/categories', { hide_empty: false, _fields: 'id,count' });
  const users = await client.all<{ id: number }>('/wp/v2/users', { context: 'edit', _fields: 'id' });
  const posts = await client.get<Array<{ id: number }>>('/wp/v2/posts', { per_page: 100, _fields: 'id', status: ['publish', 'draft'], context: 'edit' });
  return {
    me,
    defaultCategory,
    categories: categories.map((c) => c.id).filter((id) => id !== defaultCategory),
    usedCategories: categories.filter((c) => c.count > 0 && c.id !== defaultCategory).map((c) => c.id),
    users: users.map((u) => u.id).filter((id) => id !== me),
    posts: posts.map((p) => p.id),
  };
}
