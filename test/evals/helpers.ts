import { testSandbox } from '../helpers/sandboxes.js';
import type { EvalCase } from '../../src/evals/case-schema.js';
import { loadCases } from '../../src/evals/loader.js';
import type { ModelSource } from '../../src/evals/models.js';
import { type EvalReport, runEvals } from '../../src/evals/run-evals.js';
import { restoreSnapshot, type SandboxOptions } from '../../src/sandbox/index.js';
import { recordReset, timedReset } from '../helpers/reset-time.js';

/** The test sandbox (started and seeded by test/global-setup.ts) as the evals' sandbox. */
export function evalSandbox(): SandboxOptions {
  const { home, name, port } = testSandbox();
  return { home, name, port, log: () => {} };
}

/** Runs cases in-process on the test sandbox. */
export async function runOnTestSandbox(cases: readonly EvalCase[], models: ModelSource): Promise<EvalReport> {
  return recordEvalRestores(await runEvals({ cases, models, sandbox: evalSandbox() }));
}

/** Adds the cases' restores (each case starts from the seeded snapshot) to the run's reset time (test/helpers/reset-time.ts). */
export function recordEvalRestores(report: EvalReport): EvalReport {
  const ms = report.cases.reduce((sum, c) => sum + c.timings.restoreMs, 0);
  if (report.cases.length) recordReset("eval cases' restores", ms, report.cases.length);
  return report;
}

/** One case from evals/cases, deep-copied so a test may change it. */
export async function caseById(id: string): Promise<EvalCase> {
  const found = (await loadCases()).find((c) => c.id === id);
  if (!found) throw new Error(`no eval case ${id}`);
  return structuredClone(found);
}

/** Leaves the test site as the other test files expect it: the seeded dataset. */
export function restoreSeeded(): Promise<void> {
  return timedReset('restores of the seeded snapshot', () => restoreSnapshot(evalSandbox(), 'seeded'));
}
