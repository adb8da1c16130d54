import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Time spent putting WordPress back (issue #53): every snapshot restore and site reset the tests
 * make is timed and appended, one JSON line each, to a file in the run's temporary folder
 * (test/run-tmp.ts), which every worker shares; the time reporter (test/time-reporter.ts) adds
 * them up at the end of the run. `what` groups them: "restore seeded", "eval cases' restores" …
 */
export const RESETS_FILE = 'wordpress-resets.jsonl';

export interface ResetRecord {
  what: string;
  ms: number;
  count: number;
}

function resetsFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.CMS_TEST_RUN_TMP;
  return dir ? join(dir, RESETS_FILE) : undefined;
}

/** Appends `count` resets that took `ms` in all (nothing outside a run: no run folder). */
export function recordReset(what: string, ms: number, count = 1): void {
  const file = resetsFile();
  if (!file) return;
  const line: ResetRecord = { what, ms: Math.round(ms), count };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** Runs a reset and records how long it took (failed ones too). */
export async function timedReset<T>(what: string, reset: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await reset();
  } finally {
    recordReset(what, performance.now() - started);
  }
}

/** The run's resets, summed per `what`, most time first. */
export function readResets(dir: string | undefined = process.env.CMS_TEST_RUN_TMP): ResetRecord[] {
  if (!dir) return [];
  const file = join(dir, RESETS_FILE);
  if (!existsSync(file)) return [];
  const sums = new Map<string, ResetRecord>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as ResetRecord;
      const sum = sums.get(r.what) ?? { what: r.what, ms: 0, count: 0 };
      sum.ms += r.ms;
      sum.count += r.count;
      sums.set(r.what, sum);
    } catch {
      // a line cut by a worker that was killed
    }
  }
  return [...sums.values()].sort((a, b) => b.ms - a.ms);
}
