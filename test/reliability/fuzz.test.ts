import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapLimit } from '../../src/client/index.js';
import { invoke, parseEnvelope, USAGE_ERROR_CODES } from '../../src/call/envelope.js';
import { findTool, type ToolFilter, type ToolOutcome } from '../../src/call/index.js';
import { BUDGETS, FUZZ_RUNS, fuzzRuns, printBudget, runSeed, testBudget } from '../helpers/budget.js';
import { testContext } from '../helpers/site.js';
import {
  defineOwn,
  garbage,
  invalidParams,
  pollutionObject,
  TOOL_NAMES,
  weirdNumber,
  weirdString,
  wrongToolName,
} from './arbitraries.js';
import { existingIds, siteCalls, validWrite } from './site-calls.js';
import { prototypeFingerprint, siteState } from './site-state.js';

/**
 * Property-based fuzzing of the envelope, in process, against the real sandbox: every
 * envelope ends in a result or a clear error, none throws or hangs, invalid ones are refused
 * before any request, and nothing on the site changes.
 */

// The run's seed (CMS_TEST_SEED replays a run; FUZZ_SEED still names one for this file alone), and
// each property's runs under the budget (test/helpers/budget.ts: all in CI, a fifth in npm test).
const seed = Number(process.env.FUZZ_SEED) || runSeed();
const budgeted = (Object.keys(FUZZ_RUNS) as Array<keyof typeof FUZZ_RUNS>).reduce((sum, p) => sum + fuzzRuns(p), 0);
printBudget(
  `fuzz: ${budgeted.toLocaleString('en')} of ${BUDGETS.fuzz.full.toLocaleString('en')} envelopes (${testBudget()} budget), seed ${seed}`,
);
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

/**
 * Runs one envelope; a throw or a hang fails the property. The bound only tells a hang from an
 * answer: it is far above any real answer even on a machine busy with other work, since how fast
 * a call is belongs to the benchmark, not to a test.
 */
async function attempt(envelope: unknown, filter: ToolFilter = {}, limitMs = 20_000): Promise<ToolOutcome> {
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

const settings = <T>(numRuns: number): fc.Parameters<T> => ({
  numRuns,
  seed,
  endOnFailure: true,
  reporter: reporter<T>,
});

const run = (arb: fc.Arbitrary<unknown>, numRuns: number, filter: ToolFilter = {}) =>
  fc.assert(
    fc.asyncProperty(arb, (envelope) => expectRefusedOffline(envelope, filter)),
    settings(numRuns),
  );

const realName = fc.constantFrom(...TOOL_NAMES);

describe('invalid envelopes are refused before any request', () => {
  it('garbage as the envelope', () => run(garbage, fuzzRuns('garbage')));

  it('tool names that are not tools', () =>
    run(
      fc.record({ tool: wrongToolName, params: fc.option(garbage, { nil: undefined }) }, { requiredKeys: ['tool'] }),
      fuzzRuns('tool names'),
    ));

  it('params that are not an object', () =>
    run(
      fc.record({
        tool: realName,
        params: fc.oneof(
          fc.array(garbage, { maxLength: 3 }),
          weirdString,
          weirdNumber,
          fc.constantFrom(null, true, false),
        ),
      }),
      fuzzRuns('params not an object'),
    ));

  it('envelope members besides tool and params', () =>
    run(
      fc
        .tuple(
          realName,
          pollutionObject(),
          fc.option(fc.dictionary(fc.string({ minLength: 1 }), garbage, { minKeys: 1, maxKeys: 2 })),
        )
        .map(([tool, extra, more]) => {
          const envelope = { tool, params: {} };
          for (const [k, v] of Object.entries({ ...more }))
            if (k !== 'tool' && k !== 'params') defineOwn(envelope, k, v);
          for (const k of Object.keys(extra)) defineOwn(envelope, k, extra[k]);
          return envelope;
        }),
      fuzzRuns('envelope members'),
    ));

  it('real tools with params that break the schema (wrong types, missing and extra keys)', () =>
    run(
      realName.chain((name) => invalidParams(findTool(name) as never).map((params) => ({ tool: name, params }))),
      fuzzRuns('params that break the schema'),
    ));

  it('JSON text that is not JSON, or not an envelope', async () => {
    const valid = JSON.stringify({ tool: 'create-category', params: { name: 'Fuzz should never exist' } });
    const text = fc.oneof(
      fc.nat({ max: valid.length - 1 }).map((n) => valid.slice(0, n)),
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        "{'tool':'get-cms-tags'}",
        '{"tool":"create-tag","params":{"name":"x",}}',
        '{"tool":NaN}',
        '\ufeff{"tool":"x"}',
        '{"tool":"create-tag"/*c*/}',
        'null',
        '[]',
        '""',
        '1e999',
      ),
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
      settings(fuzzRuns('JSON text')),
    );
  });

  it('valid writes in a read-only session', () => {
    const writes = TOOL_NAMES.filter((name) => !findTool(name)?.annotations.readOnly);
    const envelope = fc
      .tuple(fc.constantFrom(...writes), fc.string({ minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 300 }))
      .map(([tool, text, id]) => ({
        tool,
        params: validWrite(tool, text.trim() || 'x', id),
      }));
    return run(envelope, fuzzRuns('read-only writes'), { readOnly: true });
  });
});

describe('schema-valid calls with ids that do not exist and odd values', () => {
  it('reach WordPress and come back as clear errors (writes) or results (reads); nothing written', async () => {
    const calls = fc.sample(siteCalls(await existingIds()), { numRuns: fuzzRuns('calls that reach WordPress'), seed });
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
        if (USAGE_ERROR_CODES.has(error.code))
          failures.push(`${tool}: refused as ${error.code} although schema-valid: ${error.message}`);
      } catch (err) {
        failures.push(`${tool} ${JSON.stringify(params).slice(0, 200)}: ${(err as Error).message}`);
      }
    });
    expect(failures).toEqual([]);
  });
});
