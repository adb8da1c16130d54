import type { CaseResult } from './run-case.js';
import type { EvalReport } from './run-evals.js';

/** One progress line per finished case (stderr while the suite runs). */
export function progressLine(result: CaseResult): string {
  const mark = result.passed ? 'PASS' : 'FAIL';
  const head = `${mark} ${result.id} (${result.steps} steps, ${result.toolCalls.length} calls, ${seconds(result.timings.totalMs)})`;
  return result.passed ? head : [head, ...result.failures.map((f) => `     - ${f}`)].join('\n');
}

/** The summary table for the terminal: per case, then totals. */
export function formatTable(report: EvalReport): string {
  const header = ['case', 'category', 'result', 'steps', 'calls', 'tokens', 'restore', 'time'];
  const rows = report.cases.map((r) => [
    r.id,
    r.category,
    r.passed ? 'pass' : 'FAIL',
    String(r.steps),
    String(r.toolCalls.length),
    String(r.tokens.total),
    `${r.timings.restoreMs} ms`,
    seconds(r.timings.totalMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const { summary } = report;
  const failures = report.cases
    .filter((r) => !r.passed)
    .flatMap((r) => [`${r.id}:`, ...r.failures.map((f) => `  - ${f}`)]);
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `model ${report.model}: ${summary.passed}/${summary.total} passed, ${summary.failed} failed; ` +
      `${summary.steps} steps, ${summary.toolCalls} tool calls, ${summary.tokens} tokens; ` +
      `restore ${summary.restoreMs.mean} ms mean (${summary.restoreMs.min}–${summary.restoreMs.max}); ` +
      `total ${seconds(summary.totalMs)}`,
    ...(failures.length ? ['', 'Failures:', ...failures] : []),
  ].join('\n');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
