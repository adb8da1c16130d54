import { WordPressClient } from '../client/index.js';
import { type SandboxOptions, siteUp } from '../sandbox/index.js';
import type { EvalCase } from './case-schema.js';
import type { ModelSource } from './models.js';
import { type CaseEnvironment, type CaseResult, runCase } from './run-case.js';

export const EVAL_SANDBOX = { name: 'eval', port: 8940 } as const;
/** The multisite network the `target: network` cases run on (`site up --multisite`; it keeps its port). */
export const EVAL_NETWORK = { name: 'eval-net', port: 8944 } as const;

export interface EvalRunOptions {
  cases: readonly EvalCase[];
  models: ModelSource;
  /** The sandbox instance the cases run on (default `eval` on port 8940). */
  sandbox?: SandboxOptions;
  /** The multisite sandbox the network cases run on (default `eval-net` on port 8944). */
  networkSandbox?: SandboxOptions;
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
  // Each target's sandbox is started only when a case needs it (in the cases' order).
  const targets = new Map<EvalCase['target'], Promise<Omit<CaseEnvironment, 'models'>>>();
  const environment = (target: EvalCase['target']) => {
    let env = targets.get(target);
    if (!env) {
      env = target === 'network' ? networkEnvironment(options.networkSandbox) : siteEnvironment(options.sandbox);
      targets.set(target, env);
    }
    return env;
  };
  const results: CaseResult[] = [];
  for (const evalCase of options.cases) {
    const result = await runCase(evalCase, { ...(await environment(evalCase.target)), models: options.models });
    results.push(result);
    options.onResult?.(result);
  }
  return { model: options.models.name, cases: results, summary: summarize(results, performance.now() - started) };
}

async function siteEnvironment(options: SandboxOptions | undefined): Promise<Omit<CaseEnvironment, 'models'>> {
  const sandbox: SandboxOptions = { ...EVAL_SANDBOX, log: () => {}, ...options };
  // Restores the `seeded` snapshot when it matches the seed files; seeds otherwise.
  const creds = await siteUp({ ...sandbox, seed: true });
  const site = { url: creds.url, username: creds.username, appPassword: creds.appPassword };
  return { sandbox, site, checkClient: new WordPressClient(site) };
}

async function networkEnvironment(options: SandboxOptions | undefined): Promise<Omit<CaseEnvironment, 'models'>> {
  const sandbox: SandboxOptions = { ...EVAL_NETWORK, log: () => {}, ...options, multisite: true };
  const creds = await siteUp(sandbox);
  const site = { url: creds.url, username: creds.username, appPassword: creds.appPassword };
  return { sandbox, site, checkClient: new WordPressClient(site), network: true };
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
  return cases.filter((c) => [c.id, c.title, c.category, c.target].some((text) => text.toLowerCase().includes(wanted)));
}
