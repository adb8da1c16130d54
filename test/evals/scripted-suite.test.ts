import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_CATEGORIES } from '../../src/evals/case-schema.js';
import { loadCases } from '../../src/evals/loader.js';
import { type ModelSource, scriptedSource } from '../../src/evals/models.js';
import { formatTable } from '../../src/evals/report.js';
import { selectTools, tools } from '../../src/call/index.js';
import { budgetCount, runSeed } from '../helpers/budget.js';
import { restoreSeeded, runOnTestSandbox } from './helpers.js';
import type { EvalCase } from '../../src/evals/case-schema.js';

/**
 * The cases this run replays: all under the full budget; under the quick one a sample drawn from
 * the run's seed that holds every category at least once (each case restores the site first, so
 * the sample is most of this file's time).
 */
function sample(cases: EvalCase[], count: number): EvalCase[] {
  if (count >= cases.length) return cases;
  let state = runSeed() || 1;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
  const shuffled = cases.map((c) => ({ c, key: next() })).sort((a, b) => a.key - b.key).map((x) => x.c);
  const firstOfEach = [...new Map(shuffled.map((c) => [c.category, c] as const)).values()];
  const rest = shuffled.filter((c) => !firstOfEach.includes(c));
  return [...firstOfEach, ...rest].slice(0, Math.max(count, firstOfEach.length));
}

let models: ModelSource;
beforeAll(async () => {
  models = await scriptedSource();
});
afterAll(async () => {
  await models.close();
  await restoreSeeded();
});

describe('evals/cases with --model scripted', () => {
  it('has at least 30 cases, every category, and uses every tool of the registry', async () => {
    const cases = await loadCases();
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map((c) => c.category))).toEqual(new Set(CASE_CATEGORIES));
    const used = new Set(
      cases.flatMap((c) =>
        c.turns.flatMap((turn) =>
          turn.reference.flatMap((step) =>
            'tool' in step ? [step.tool] : 'parallel' in step ? step.parallel.map((call) => call.tool) : [],
          ),
        ),
      ),
    );
    // Every tool a single site offers; the network tools are used by the network cases (network-suite.test.ts).
    const singleSite = selectTools(tools, {});
    expect(singleSite.map((tool) => tool.name).filter((name) => !used.has(name))).toEqual([]);
    expect(cases.filter((c) => c.target === 'network').length).toBeGreaterThanOrEqual(3);
  });

  it('replays the reference trajectories through the real runner (every one in the full budget); every case passes', async () => {
    // The single-site cases; the network ones run on the test network (network-suite.test.ts).
    const all = (await loadCases()).filter((c) => c.target === 'site');
    const cases = sample(all, budgetCount('evalCases', 'evals'));
    expect(new Set(cases.map((c) => c.category))).toEqual(new Set(all.map((c) => c.category)));
    const report = await runOnTestSandbox(cases, models);
    const failed = report.cases.filter((c) => !c.passed).map((c) => `${c.id}: ${c.failures.join(' | ')}`);
    expect(failed).toEqual([]);
    expect(report.summary).toMatchObject({ total: cases.length, passed: cases.length, failed: 0 });
    // Restore times are in the printed table and the benchmark; a time bound here failed under load.
    for (const result of report.cases) {
      expect(result.steps, result.id).toBeGreaterThan(0);
      expect(result.tokens.total, result.id).toBeGreaterThan(0);
    }
    process.stderr.write(`${formatTable(report)}\n`);
  }, 600_000);
});
