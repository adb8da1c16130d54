import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  type Budget,
  BUDGETS,
  FUZZ_RUNS,
  fuzzRuns,
  runSeed,
  testBudget,
  UNDO_SEEDS,
  undoRuns,
} from '../helpers/budget.js';
import { importGraph } from '../helpers/import-graph.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUDGET_MODULE = path.join(ROOT, 'test', 'helpers', 'budget.ts');

/** The test files that read a budget (import budget.ts, directly or through a module of theirs). */
function budgetedFiles(): string[] {
  const graph = importGraph(path.join(ROOT, 'test'));
  const reaches = (file: string, seen = new Set<string>()): boolean => {
    if (file === BUDGET_MODULE) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    return (graph.get(file) ?? []).some((next) => reaches(next, seen));
  };
  return [...graph.keys()]
    .filter((file) => file.endsWith('.test.ts') && !file.includes(`${path.sep}unit${path.sep}`) && reaches(file))
    .map((file) => path.relative(ROOT, file))
    .sort();
}

/** `vitest list` of `files` under `budget`: every test as "file > describe > name". */
async function listTests(files: string[], budget: Budget): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cms-budget-list-'));
  const out = path.join(dir, 'list.json');
  try {
    const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    await promisify(execFile)(
      process.execPath,
      [vitest, 'list', '--config', 'test/budget-list.config.ts', `--json=${out}`, ...files],
      // A fixed seed: the random seed's path (plugin or core) must not change what is listed either.
      {
        cwd: ROOT,
        env: { ...process.env, CMS_TEST_BUDGET: budget, CMS_TEST_SEED: '12345', CMS_TEST_RUN_TMP: '' },
        timeout: 120_000,
      },
    );
    const listed = JSON.parse(readFileSync(out, 'utf8')) as Array<{ name: string; file: string }>;
    return listed.map((t) => `${path.relative(ROOT, t.file)} > ${t.name}`).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('test budgets (CMS_TEST_BUDGET)', () => {
  it('quick by default, full when asked, anything else refused by name', () => {
    expect(testBudget({})).toBe('quick');
    expect(testBudget({ CMS_TEST_BUDGET: 'full' })).toBe('full');
    expect(() => testBudget({ CMS_TEST_BUDGET: 'fast' })).toThrow(/CMS_TEST_BUDGET=fast: expected quick or full/);
    expect(runSeed({ CMS_TEST_SEED: '42' })).toBe(42);
    expect(() => runSeed({ CMS_TEST_SEED: 'x' })).toThrow(/CMS_TEST_SEED=x/);
  });

  it('every quick count is smaller than its full one, and the undo property keeps the seed that found a bug plus a random one on the core path', () => {
    for (const [name, entry] of Object.entries(BUDGETS)) expect(entry.quick, name).toBeLessThan(entry.full);
    for (const property of Object.keys(FUZZ_RUNS) as Array<keyof typeof FUZZ_RUNS>)
      expect(fuzzRuns(property, { CMS_TEST_BUDGET: 'quick' })).toBeLessThan(
        fuzzRuns(property, { CMS_TEST_BUDGET: 'full' }),
      );
    expect(UNDO_SEEDS.quick).toEqual({ plugin: [1], core: [] });
    for (const path of ['plugin', 'core'] as const)
      for (const seed of UNDO_SEEDS.quick[path]) expect(UNDO_SEEDS.full[path]).toContain(seed);
    const quick = undoRuns({ CMS_TEST_SEED: '7' });
    expect(quick).toEqual([
      { seed: 1, core: false, random: false },
      { seed: 7, core: true, random: true },
    ]);
    expect(undoRuns({ CMS_TEST_BUDGET: 'full', CMS_TEST_SEED: '8' })).toHaveLength(BUDGETS.undoProperty.full);
    expect(undoRuns({ CMS_TEST_BUDGET: 'full', CMS_TEST_SEED: '8' }).at(-1)).toEqual({
      seed: 8,
      core: true,
      random: true,
    });
  });

  it('docs/testing.md has the table of budgets: each test with its quick and full count', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'testing.md'), 'utf8');
    for (const entry of Object.values(BUDGETS)) {
      const row = doc.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${entry.test}\``));
      expect(row, `a row for ${entry.test}`).toBeDefined();
      const cells = (row as string).split('|').map((c) => c.trim().replace(/,/g, ''));
      expect(cells, `${entry.test}: quick ${entry.quick}, full ${entry.full} ${entry.unit}`).toEqual(
        expect.arrayContaining([`${entry.quick}`, `${entry.full}`]),
      );
    }
  });

  it('the budgeted files have the same tests, by name, under both budgets', async () => {
    const files = budgetedFiles();
    // Each budget in BUDGETS is read by its file(s).
    for (const entry of Object.values(BUDGETS)) {
      const pattern = new RegExp(`^${entry.test.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
      expect(
        files.some((file) => pattern.test(file)),
        `${entry.test} reads test/helpers/budget.ts`,
      ).toBe(true);
    }
    const [quick, full] = await Promise.all([listTests(files, 'quick'), listTests(files, 'full')]);
    expect(new Set(quick.map((t) => t.split(' > ')[0])), 'every budgeted file lists its tests').toEqual(new Set(files));
    expect(quick).toEqual(full);
  }, 180_000);
});
