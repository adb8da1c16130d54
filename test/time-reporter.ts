import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { testBudget } from './helpers/budget.js';
import { readResets } from './helpers/reset-time.js';

/**
 * Where the run's time went (issue #53), printed after vitest's summary: the slowest files (their
 * setup, import and tests, as vitest measures them) and the time spent putting WordPress back —
 * snapshot restores and resets, summed over every worker from the run folder's record
 * (test/helpers/reset-time.ts). A reporter of vitest.config.ts; scripts/test.mjs adds it when the
 * command line names its own reporters (as .ci/run does).
 */
export default class TimeReporter implements Reporter {
  private readonly top = Number(process.env.CMS_TEST_SLOWEST) || 10;

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (!testModules.length) return;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const files = testModules
      .map((m) => {
        const d = m.diagnostic();
        return {
          file: relative(process.cwd(), m.moduleId),
          ms: d.duration + d.setupDuration + d.collectDuration + d.prepareDuration,
        };
      })
      .sort((a, b) => b.ms - a.ms);
    const all = files.reduce((sum, f) => sum + f.ms, 0);
    const lines = [
      `where the time went (${testBudget()} budget): the ${Math.min(this.top, files.length)} slowest of ${files.length} files (${s(all)} of file time in all)`,
    ];
    const width = Math.max(...files.slice(0, this.top).map((f) => s(f.ms).length));
    for (const f of files.slice(0, this.top)) lines.push(`  ${s(f.ms).padStart(width)}  ${f.file}`);
    const resets = readResets();
    const total = resets.reduce((sum, r) => ({ ms: sum.ms + r.ms, count: sum.count + r.count }), { ms: 0, count: 0 });
    lines.push(
      `WordPress put back: ${s(total.ms)} in ${total.count} restores and resets, summed over the workers${resets.length ? ':' : ''}`,
    );
    for (const r of resets) lines.push(`  ${s(r.ms)}  ${r.count} × ${r.what}`);
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
