import { WordPressClient } from '../client/index.js';
import { type SandboxOptions, siteUp } from '../sandbox/index.js';
import type { EvalCase } from './case-schema.js';
import type { ModelSource } from './models.js';
import { type CaseResult, runCase } from './run-case.js';

export const EVAL_SANDBOX = { name: 'eval', port: 8940 } as const;

export interface EvalRunOptions {
  cases: readonly EvalCase[];
  models: ModelSource;
  /** The sandbox instance the cases run on (default `eval` on port 8940). */
  sandbox?: SandboxOptions;
  /** Called as each case finishes (progress output). */
  onResult?: (result: CaseResult) => void;
}

export interface EvalReport {
  model: string;
  cases: CaseResult[];
  summary: {
    total: number;
    passed: number;
    failed: number;
    steps: number;
    toolCalls: number;
    tokens: number;
    restoreMs: { min: number; mean: number; max: number };
    totalMs: number;
  };
}

/**
 * Runs cases one after another on the eval sandbox, each from the `seeded` snapshot. The
 * sandbox is started (and seeded, or its snapshot restored) if needed.
 */
export async function runEvals(options: EvalRunOptions): Promise<EvalReport> {
  const started = performance.now();
  const sandbox: SandboxOptions = { ...EVAL_SANDBOX, log: () => {}, ...options.sandbox };
  // Restores the `seeded` snapshot when it matches the seed files; seeds otherwise.
  const creds = await siteUp({ ...sandbox, seed: true });
  const site = { url: creds.url, username: creds.username, appPassword: creds.appPassword };
  const checkClient = new WordPressClient(site);
  const results: CaseResult[] = [];
  for (const evalCase of options.cases) {
    const result = await runCase(evalCase, { sandbox, site, checkClient, models: options.models });
    results.push(result);
    options.onResult?.(result);
  }
  return { model: options.models.name, cases: results, summary: summarize(results, performance.now() - started) };
}

function summarize(results: readonly CaseResult[], totalMs: number): EvalReport['summary'] {
  const restores = results.map((r) => r.timings.restoreMs);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    total: results.length,
    passed: results.filter((r) => r.passed).length,
    failed: results.filter((r) => !r.passed).length,
    steps: sum(results.map((r) => r.steps)),
    toolCalls: sum(results.map((r) => r.toolCalls.length)),
    tokens: sum(results.map((r) => r.tokens.total)),
    restoreMs: {
      min: restores.length ? Math.min(...restores) : 0,
      mean: restores.length ? Math.round(sum(restores) / restores.length) : 0,
      max: restores.length ? Math.max(...restores) : 0,
    },
    totalMs: Math.round(totalMs),
  };
}

/** Cases whose id, title or category contains `filter` (case-insensitive). */
export function filterCases(cases: readonly EvalCase[], filter: string | undefined): EvalCase[] {
  if (!filter) return [...cases];
  const wanted = filter.toLowerCase();
  return cases.filter((c) => [c.id, c.title, c.category].some((text) => text.toLowerCase().includes(wanted)));
}
